import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { assertProjectAccess, authorOf, type SessionPrincipal } from '@cairn/access';
import { BadRequestError, NotFoundError } from '@cairn/common';
import { CAIRN_CONFIG, type CairnConfig } from '@cairn/config';
import { JobQueue } from '@cairn/jobs';
import { type ProjectRef, ProjectResolver } from '@cairn/projects';
import { RetentionSettings } from '@cairn/retention';
import { SecretRedaction } from '@cairn/secrets';
import { TenantTransaction } from '@cairn/tenancy';
import { chunkText } from './chunker';
import { assertMayRemoveDocument } from './document-access';
import { contentHash, normaliseDocumentText, normaliseLabel } from './document-text';
import { KbChunksRepository, type NewChunk } from './kb-chunks.repository';
import { KbDocumentsRepository } from './kb-documents.repository';
import {
  type DocumentPage,
  type IndexRequest,
  type IndexResult,
  type KbDocument,
  type PurgeResult,
  RETENTION_TIERS,
  type RetentionTier,
  SOURCE_MAX_CHARS,
  TITLE_MAX_CHARS,
} from './contract/kb.types';

interface Indexed {
  readonly project: ProjectRef;
  readonly document: KbDocument;
  readonly newChunks: readonly NewChunk[];
  readonly duplicate: boolean;
  readonly replaced: number;
}

/**
 * The project knowledge base (DESIGN §4, §6): indexing with de-duplication and replacement
 * of older versions, listing, deletion and retention purge. Search is KbSearchService.
 */
@Injectable()
export class KnowledgeService {
  constructor(
    @Inject(CAIRN_CONFIG) private readonly config: CairnConfig,
    private readonly tx: TenantTransaction,
    private readonly projects: ProjectResolver,
    private readonly documents: KbDocumentsRepository,
    private readonly chunks: KbChunksRepository,
    private readonly jobs: JobQueue,
    private readonly secrets: SecretRedaction,
    private readonly retention: RetentionSettings,
  ) {}

  /**
   * Stores the text as chunks searchable by keyword as soon as the transaction commits, then
   * enqueues their embedding; the call never waits for a model. Same content of the same
   * source again is a duplicate; new content of a known source replaces its older versions.
   */
  async index(projectSlug: string, principal: SessionPrincipal, request: IndexRequest): Promise<IndexResult> {
    assertProjectAccess(principal, projectSlug);
    const text = normaliseDocumentText(request.text);
    if (text.length === 0) throw new BadRequestError('text must contain some text', undefined, 'empty_document');
    const max = this.config.knowledge.documentMaxChars;
    if (text.length > max) {
      throw new BadRequestError(
        `text must be at most ${max} characters`,
        { max, length: text.length },
        'document_too_large',
      );
    }
    // The HTTP layer validates these too; other callers (MCP tools) get the same rules here.
    const givenSource = normaliseLabel(request.source);
    const givenTitle = request.title === undefined ? null : normaliseLabel(request.title) || null;
    if (
      givenSource.length === 0 ||
      givenSource.length > SOURCE_MAX_CHARS ||
      (givenTitle?.length ?? 0) > TITLE_MAX_CHARS
    ) {
      throw new BadRequestError(
        `source must have 1-${SOURCE_MAX_CHARS} characters and title at most ${TITLE_MAX_CHARS}`,
        undefined,
        'bad_label',
      );
    }
    const sourceType = request.sourceType ?? 'internal';
    const tier: RetentionTier = request.retentionTier ?? (sourceType === 'external' ? 'external' : 'internal');
    // Secrets out before hashing and chunking: chunks, their vectors and the hash see placeholders.
    // The source and title too (a URL with a password, a token in a title), and what a fetch
    // recorded (the URL that answered): the same secret gets the same placeholder, so a source
    // still names its document's versions.
    const clean = await this.secrets.redactFields({
      text,
      source: givenSource,
      title: givenTitle,
      metadata: request.metadata ?? {},
    });
    const { text: stored, source, title, metadata } = clean.fields;
    const hash = contentHash(stored);
    // Chunked before the transaction opens: no connection is held while the CPU works.
    const pieces = uniqueChunks(stored);
    const author = authorOf(principal);
    const documentId = randomUUID();

    let queued = false;
    const indexed = await this.tx.run(async (): Promise<Indexed> => {
      const project = await this.projects.resolve(projectSlug);
      await this.documents.lockSource(project.id, source);
      // The tenant's retention (its own days, else the installation's), read in its transaction.
      const days = (await this.retention.effective()).knowledgeBaseDays;
      const existing = await this.documents.renewExisting(project.id, source, hash, days);
      if (existing) return { project, document: existing, newChunks: [], duplicate: true, replaced: 0 };
      // New content replaces the source's older versions: removing them takes the right to delete them.
      for (const older of await this.documents.listBySource(project.id, source)) {
        assertMayRemoveDocument(principal, older, 'replace');
      }
      await this.secrets.keep(clean.sealed, {
        projectId: project.id,
        sourceTable: 'kb_documents',
        sourceId: documentId,
        writer: author,
      });
      const document = await this.documents.insert({
        id: documentId,
        projectId: project.id,
        source,
        title,
        sourceType,
        retentionTier: tier,
        contentHash: hash,
        chunkCount: pieces.length,
        authorUserId: author.userId,
        authorAgentId: author.agentId,
        authorTokenId: author.tokenId,
        retentionDays: days[tier],
        metadata,
      });
      const newChunks = pieces.map((piece, ordinal) => ({
        id: randomUUID(),
        documentId: document.id,
        projectId: project.id,
        ordinal,
        content: piece.text,
        contentHash: piece.hash,
      }));
      await this.chunks.insertMany(newChunks);
      const replaced = await this.documents.deleteOtherVersions(project.id, source, document.id);
      // After the (outermost) commit: the worker must be able to see the rows it is asked to embed.
      this.tx.onCommit(async () => {
        queued = await this.jobs.enqueueEmbedding(
          principal.tenant.id,
          'kb_chunk',
          newChunks.map((chunk) => ({ id: chunk.id, contentHash: chunk.contentHash })),
          // One document a user or agent asked for (REST, MCP, a fetch it requested).
          { origin: 'interactive' },
        );
      });
      return { project, document, newChunks, duplicate: false, replaced };
    });

    return {
      document: { ...indexed.document, project: indexed.project.slug },
      chunks: indexed.document.chunkCount,
      duplicate: indexed.duplicate,
      replaced: indexed.replaced,
      embedding: queued ? 'queued' : 'not_queued',
      redacted: clean.redacted,
    };
  }

  listDocuments(projectSlug: string, page: { limit: number; cursor?: string }): Promise<DocumentPage> {
    return this.tx.run(async () => {
      const project = await this.projects.resolve(projectSlug);
      const rows = await this.documents.list(project.id, page.limit, page.cursor);
      const items = rows.slice(0, page.limit).map((document) => ({ ...document, project: project.slug }));
      const last = items[items.length - 1];
      return { items, nextCursor: rows.length > page.limit && last ? last.id : null };
    });
  }

  /** The author or a maintainer may (see `mayRemoveDocument`); 404 for a document outside the project. */
  async deleteDocument(projectSlug: string, principal: SessionPrincipal, id: string): Promise<void> {
    assertProjectAccess(principal, projectSlug);
    await this.tx.run(async () => {
      const project = await this.projects.resolve(projectSlug);
      const document = await this.documents.find(project.id, id, { forUpdate: true });
      if (!document) throw new NotFoundError('Document');
      assertMayRemoveDocument(principal, document, 'delete');
      await this.documents.delete(project.id, id);
    });
  }

  /**
   * Deletes expired documents of one project (or of the whole tenant), optionally of one tier,
   * under the tenant's retention as it is now: each document's expiry is first dated by its
   * tier's effective days from when it was last indexed.
   */
  purge(projectSlug?: string, filter: { tier?: RetentionTier } = {}): Promise<PurgeResult> {
    return this.tx.run(async () => {
      const projectId = projectSlug === undefined ? undefined : (await this.projects.resolve(projectSlug)).id;
      const days = (await this.retention.effective()).knowledgeBaseDays;
      await this.documents.alignExpiry(days, { projectId, tier: filter.tier });
      const rows = await this.documents.purgeExpired({ projectId, tier: filter.tier });
      const documents = Object.fromEntries(RETENTION_TIERS.map((tier) => [tier, 0])) as Record<RetentionTier, number>;
      let chunks = 0;
      for (const row of rows) {
        documents[row.tier] = row.documents;
        chunks += row.chunks;
      }
      return { documents, chunks };
    });
  }
}

/** Chunks with their hashes, dropping repeats of a chunk already in the document. */
function uniqueChunks(text: string): { text: string; hash: string }[] {
  const seen = new Set<string>();
  const unique: { text: string; hash: string }[] = [];
  for (const chunk of chunkText(text)) {
    const hash = contentHash(chunk.text);
    if (seen.has(hash)) continue;
    seen.add(hash);
    unique.push({ text: chunk.text, hash });
  }
  return unique;
}
