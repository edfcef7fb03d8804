import { randomUUID } from 'node:crypto';
import { Injectable, Logger } from '@nestjs/common';
import { assertProjectAccess, authorOf, type SessionPrincipal } from '@cairn/access';
import { BadRequestError, wellFormed } from '@cairn/common';
import { sha256 } from '@cairn/generation';
import { JobQueue } from '@cairn/jobs';
import { ProjectResolver } from '@cairn/projects';
import { type SealedSecret, SecretRedaction } from '@cairn/secrets';
import { FileSummaries } from '@cairn/summaries';
import { TenantTransaction } from '@cairn/tenancy';
import { CodeBranchesRepository } from './code-branches.repository';
import { chunkCode, lineCountOf, searchTextOf } from './code-chunker';
import { CodeChunksRepository, type NewCodeChunk } from './code-chunks.repository';
import { CodeFilesRepository } from './code-files.repository';
import { CodeSymbolsRepository, type NewSymbol } from './code-symbols.repository';
import { type UploadedFile } from './contract/code-index.types';
import { CodeParser } from './code-parser.service';

export interface UploadRequest {
  readonly branch: string;
  readonly commit?: string;
  readonly files: readonly { readonly path: string; readonly content: string }[];
}

/** A changed file made ready outside the transaction: redacted, parsed, chunked. */
interface Prepared {
  readonly path: string;
  readonly hash: string;
  readonly size: number;
  readonly content: string;
  readonly language: string | null;
  readonly parseError: string | null;
  readonly symbols: readonly NewSymbol[];
  readonly references: readonly { name: string; line: number }[];
  readonly chunks: readonly NewCodeChunk[];
  readonly redacted: UploadedFile['redacted'];
  readonly sealed: readonly SealedSecret[];
}

/**
 * Files into the code index (docs/code-index.md): a file whose hash the branch already has is
 * left alone; a changed one is scanned for secrets (the stored text holds placeholders), parsed
 * (symbols and references), chunked for search, and stored in place of the old version, all of
 * its rows in one transaction with the branch locked, so concurrent uploads to a branch take
 * turns. The slow parts (secret scan, parse) run before the transaction holds a connection.
 * Embedding and the file's L0/L1 summary are queued after commit.
 */
@Injectable()
export class CodeUpload {
  private readonly logger = new Logger(CodeUpload.name);

  constructor(
    private readonly tx: TenantTransaction,
    private readonly projects: ProjectResolver,
    private readonly branches: CodeBranchesRepository,
    private readonly files: CodeFilesRepository,
    private readonly symbols: CodeSymbolsRepository,
    private readonly chunks: CodeChunksRepository,
    private readonly parser: CodeParser,
    private readonly secrets: SecretRedaction,
    private readonly jobs: JobQueue,
    private readonly summaries: FileSummaries,
  ) {}

  async upload(projectSlug: string, principal: SessionPrincipal, request: UploadRequest): Promise<UploadedFile[]> {
    assertProjectAccess(principal, projectSlug);
    // A path sent twice in one request: the later content counts, as if sent in two requests.
    const unique = [...new Map(request.files.map((file) => [file.path, file])).values()];
    const paths = unique.map((file) => file.path);
    // A path names what later requests look up: refused when it holds a secret, never redacted.
    await this.secrets.refuseInIdentifiers(Object.fromEntries(paths.map((path, i) => [`files[${i}].path`, path])));
    const sent = unique.map((file) => ({ ...file, hash: sha256(file.content) }));
    const known = await this.tx.run(async () => {
      const project = await this.projects.resolve(projectSlug);
      const branch = await this.branches.find(project.id, request.branch);
      return branch ? this.files.hashesOf(branch.id, paths) : new Map<string, string>();
    });
    const prepared: Prepared[] = [];
    for (const file of sent) {
      if (known.get(file.path) !== file.hash) prepared.push(await this.prepare(file));
    }
    const writer = authorOf(principal);
    const written = await this.tx.run(async () => {
      const project = await this.projects.resolve(projectSlug);
      const branch = await this.branches.lockOrCreate(randomUUID(), project.id, request.branch);
      // Another upload may have stored the same content since the first look: skip it then.
      const now = await this.files.hashesOf(branch.id, paths);
      const stored: { file: Prepared; chunkIds: NewCodeChunk[] }[] = [];
      for (const file of prepared) {
        if (now.get(file.path) === file.hash) continue;
        const fileId = randomUUID();
        await this.files.replace({
          id: fileId,
          branchId: branch.id,
          projectId: project.id,
          path: file.path,
          contentHash: file.hash,
          size: file.size,
          lineCount: lineCountOf(file.content),
          language: file.language,
          content: file.content,
          commit: request.commit ?? null,
          parseError: file.parseError,
        });
        await this.symbols.insert(fileId, branch.id, file.symbols, file.references);
        await this.chunks.insert({ fileId, branchId: branch.id, projectId: project.id }, file.chunks);
        await this.secrets.keep(file.sealed, {
          projectId: project.id,
          sourceTable: 'code_files',
          sourceId: fileId,
          writer,
        });
        stored.push({ file, chunkIds: [...file.chunks] });
      }
      const tenantId = principal.tenant.id;
      const chunks = stored.flatMap((entry) => entry.chunkIds);
      this.tx.onCommit(async () => {
        if (chunks.length > 0) {
          await this.jobs.enqueueEmbedding(
            tenantId,
            'code_chunk',
            chunks.map((chunk) => ({ id: chunk.id, contentHash: chunk.contentHash })),
            // A repository's index is bulk work, however few files a run sends: nobody waits on a chunk.
            { origin: 'bulk' },
          );
        }
      });
      return new Set(stored.map((entry) => entry.file.path));
    });
    await this.requestSummaries(projectSlug, principal, prepared, written);
    const byPath = new Map(prepared.map((file) => [file.path, file]));
    return sent.map((file) => {
      const done = written.has(file.path) ? byPath.get(file.path) : undefined;
      return {
        path: file.path,
        hash: file.hash,
        language: done?.language ?? null,
        symbols: done?.symbols.length ?? 0,
        chunks: done?.chunks.length ?? 0,
        unchanged: done === undefined,
        redacted: done?.redacted ?? [],
      };
    });
  }

  private async prepare(file: { path: string; content: string; hash: string }): Promise<Prepared> {
    // PostgreSQL text holds neither NUL nor a lone surrogate; the hash still covers the file as sent.
    const text = wellFormed(file.content.replaceAll('\u0000', ''));
    const clean = await this.secrets.redact([text]).catch((error: unknown) => {
      if (error instanceof BadRequestError) {
        throw new BadRequestError(`${file.path}: ${error.message}`, { path: file.path }, 'secret_refused');
      }
      throw error;
    });
    const content = clean.texts[0];
    const parsed = await this.parser.parse(file.path, content);
    const symbols = (parsed?.symbols ?? []).map((symbol) => ({
      name: symbol.name,
      kind: symbol.kind,
      startLine: symbol.startLine,
      endLine: symbol.endLine,
      signature: symbol.signature,
      container: symbol.container,
      exported: symbol.exported,
    }));
    const topLevelStarts = new Set(symbols.filter((s) => s.container === null).map((s) => s.startLine));
    return {
      path: file.path,
      hash: file.hash,
      size: Buffer.byteLength(file.content, 'utf8'),
      content,
      language: parsed?.language ?? null,
      parseError: parsed?.error ?? null,
      symbols,
      references: parsed?.references ?? [],
      chunks: chunkCode(content, topLevelStarts).map((chunk) => ({
        id: randomUUID(),
        ordinal: chunk.ordinal,
        startLine: chunk.startLine,
        endLine: chunk.endLine,
        content: chunk.content,
        searchText: searchTextOf(chunk.content),
        contentHash: sha256(chunk.content),
      })),
      redacted: clean.redacted,
      sealed: clean.sealed,
    };
  }

  /**
   * Each stored file's L0/L1 summary, through the summaries library (keyed by content hash, so a
   * file summarized before is not summarized again). A failure here never undoes the index.
   */
  private async requestSummaries(
    projectSlug: string,
    principal: SessionPrincipal,
    prepared: readonly Prepared[],
    written: ReadonlySet<string>,
  ): Promise<void> {
    for (const file of prepared) {
      if (!written.has(file.path) || file.content.trim().length === 0) continue;
      // Already scanned for the index: the summary keeps the same placeholders and originals.
      const scanned = { path: file.path, contentHash: file.hash, content: file.content, sealed: file.sealed };
      await this.summaries.requestScanned(projectSlug, principal, scanned).catch((error: unknown) => {
        this.logger.warn(`summary of ${file.path} not requested: ${(error as Error).message}`);
      });
    }
  }
}
