import { Inject, Injectable, Logger } from '@nestjs/common';
import { assertProjectAccess, authorOf, type SessionPrincipal } from '@cairn/access';
import { CairnError } from '@cairn/common';
import { CAIRN_CONFIG, type CairnConfig } from '@cairn/config';
import { JobQueue } from '@cairn/jobs';
import { type ProjectRef, ProjectResolver } from '@cairn/projects';
import { TermStatistics } from '@cairn/search';
import { type SecretTypeCount } from '@cairn/secret-detection';
import { type SealedSecret, SecretBackup, SecretRedaction } from '@cairn/secrets';
import { TenantContext, TenantTransaction } from '@cairn/tenancy';
import {
  assertMayWriteScope,
  assertMayWriteTenantWide,
  type ExistingMemory,
  memoryContentHash,
  MemoryTransfer,
  type RestoredMemory,
} from '@cairn/memory';
import { type ExportedMemory } from './contract/export-format';
import { assertMayImportPrivate, importedAuthorToken } from './import-authorship';
import { type ImportLine, invalidImport, type LineError, parseImport } from './import-parser';

export interface ImportResult {
  readonly imported: number;
  readonly unchanged: string[];
  readonly conflicts: { line: number; id: string }[];
  readonly relations: number;
  readonly embedding: 'queued' | 'deferred' | 'unchanged';
  /** Secrets replaced by placeholders across the file (types and counts). */
  readonly redacted: SecretTypeCount[];
}

/** One writer's originals of one memory, as a backup carries them. */
interface RestoredOriginals {
  readonly writer: { readonly userId: string | null; readonly agentId: string | null };
  readonly sealed: SealedSecret[];
}

const MAX_LINES = 10_000;
/** Imports at least this large settle the statistics ranking depends on at once (see settle). */
const SETTLE_AFTER = 1_000;

/**
 * Imports a JSON Lines export into a project: everything is validated first (every line,
 * then id collisions and references against the tenant), then written in one transaction
 * with ids and timestamps preserved; vectors are queued after the commit.
 */
@Injectable()
export class MemoryImporter {
  private readonly logger = new Logger('MemoryImporter');

  constructor(
    @Inject(CAIRN_CONFIG) private readonly config: CairnConfig,
    private readonly tx: TenantTransaction,
    private readonly tenant: TenantContext,
    private readonly resolver: ProjectResolver,
    private readonly transfer: MemoryTransfer,
    private readonly jobs: JobQueue,
    private readonly secrets: SecretRedaction,
    private readonly backup: SecretBackup,
    private readonly termStatistics: TermStatistics,
  ) {}

  async import(
    projectSlug: string,
    principal: SessionPrincipal,
    text: string,
    onConflict: 'fail' | 'skip',
  ): Promise<ImportResult> {
    assertProjectAccess(principal, projectSlug);
    const parsed = parseImport(text, { maxContentChars: this.config.memory.contentMaxChars, maxLines: MAX_LINES });
    if (parsed.lines.some((line) => line.memory.scope === 'tenant')) assertMayWriteTenantWide(principal);
    if (parsed.lines.some((line) => line.memory.scope === 'team')) assertMayWriteScope(principal, 'team');
    assertMayImportPrivate(principal, parsed.lines);
    const restored = await this.restorable(parsed.lines, principal);
    // Before comparing with what exists: a re-import of a redacted export matches its placeholders.
    const { lines, sealed, redacted } = await this.redact(parsed.lines);
    const result = await this.tx.run(async () => {
      const project = await this.resolver.resolve(projectSlug);
      const existing = new Map((await this.transfer.findExisting(lines.map((l) => l.memory.id))).map((e) => [e.id, e]));
      const fresh: ImportLine[] = [];
      const unchanged: ImportLine[] = [];
      const conflicts: { line: number; id: string }[] = [];
      for (const line of lines) {
        const found = existing.get(line.memory.id);
        if (!found) fresh.push(line);
        else if (sameMemory(found, line.memory, project)) unchanged.push(line);
        else conflicts.push({ line: line.line, id: line.memory.id });
      }
      if (conflicts.length > 0 && onConflict === 'fail') {
        throw new CairnError(
          409,
          'import_conflict',
          `${conflicts.length} line(s) use ids that exist with other content or in another project; nothing was imported (onConflict=skip imports the rest)`,
          conflicts.slice(0, 100),
        );
      }
      const kept = [...fresh, ...unchanged];
      await this.assertReferencesResolve(fresh, kept, project);
      const written = await this.transfer.insertRestored(
        fresh.map((line) => restoredMemory(line.memory, project.id, importedAuthorToken(principal, line.memory))),
      );
      if (written !== fresh.length) {
        // Another import wrote some of these ids since we looked: roll back, the retry sorts them.
        throw new CairnError(409, 'import_conflict', 'Memories with these ids were imported concurrently; retry');
      }
      for (const { memory } of fresh) {
        await this.secrets.keep(sealed.get(memory.id) ?? [], {
          projectId: memory.scope === 'tenant' ? null : project.id,
          sourceTable: 'memories',
          sourceId: memory.id,
          writer: authorOf(principal),
        });
        // Backed-up originals go back to their writers (the importing admin's token holds them too).
        for (const { writer, sealed: originals } of restored.get(memory.id) ?? []) {
          await this.secrets.keep(originals, {
            projectId: memory.scope === 'tenant' ? null : project.id,
            sourceTable: 'memories',
            sourceId: memory.id,
            writer: { ...writer, tokenId: principal.tokenId },
          });
        }
      }
      await this.transfer.restoreSuperseded(
        fresh.flatMap(({ memory }) => (memory.supersededBy ? [{ id: memory.id, by: memory.supersededBy }] : [])),
      );
      const relations = kept.flatMap(({ memory }) => memory.relations.map((r) => ({ ...r, fromId: memory.id })));
      await this.transfer.insertRelations(relations, authorOf(principal));
      return {
        imported: fresh.length,
        unchanged: unchanged.map((l) => l.memory.id),
        conflicts,
        relations: relations.length,
        fresh,
      };
    });
    const { fresh, ...counts } = result;
    if (fresh.length >= SETTLE_AFTER) await this.settle();
    return { ...counts, embedding: await this.enqueue(fresh.map((line) => line.memory)), redacted };
  }

  /**
   * After a bulk import's commit, what the worker and autovacuum would do within a minute or two,
   * done now so the first recalls over the new rows are not slow: fold the term-count deltas its
   * rows appended (the fold vacuums the term tables after one this large) and refresh the
   * planner's statistics of memories. The import stands whatever happens here, so a failure is
   * only logged.
   */
  private async settle(): Promise<void> {
    try {
      await this.termStatistics.fold();
      await this.transfer.refreshPlannerStatistics();
    } catch (error) {
      this.logger.warn({ msg: 'term statistics or planner statistics not settled after an import', err: error });
    }
  }

  /**
   * The sealed originals a backup carries (`secrets`, from an export with secrets=ciphertext), by
   * memory and writer, each checked to open under this tenant's key: only an admin may import
   * them, and a file whose envelopes are not this tenant's is refused whole (400, by line).
   */
  private async restorable(
    lines: readonly ImportLine[],
    principal: SessionPrincipal,
  ): Promise<Map<string, RestoredOriginals[]>> {
    const byMemory = new Map<string, RestoredOriginals[]>();
    if (!lines.some((line) => (line.memory.secrets ?? []).length > 0)) return byMemory;
    this.backup.assertMayBackUp(principal);
    const errors: LineError[] = [];
    for (const { line, memory } of lines) {
      const groups = new Map<string, RestoredOriginals>();
      for (const [index, secret] of (memory.secrets ?? []).entries()) {
        const result = await this.backup.restorable(secret);
        if ('refused' in result) {
          errors.push({ line, path: `secrets.${index}.ciphertext`, message: result.refused });
          continue;
        }
        const key = `${secret.writer.userId ?? ''}/${secret.writer.agentId ?? ''}`;
        const group = groups.get(key) ?? { writer: secret.writer, sealed: [] };
        group.sealed.push(result);
        groups.set(key, group);
      }
      if (groups.size > 0) byMemory.set(memory.id, [...groups.values()]);
    }
    if (errors.length > 0) throw invalidImport(errors);
    return byMemory;
  }

  /**
   * Each line's texts through SecretRedaction (content, tags, keywords, the source's path and
   * hash, relation notes), so `reject` refuses the whole file.
   */
  private async redact(lines: readonly ImportLine[]): Promise<{
    lines: ImportLine[];
    sealed: Map<string, SealedSecret[]>;
    redacted: SecretTypeCount[];
  }> {
    const sealed = new Map<string, SealedSecret[]>();
    const counts = new Map<string, number>();
    const clean = [];
    for (const line of lines) {
      const { content, tags, keywords, source, relations } = line.memory;
      const result = await this.secrets.redactFields({
        content,
        tags,
        keywords,
        sourcePath: source?.path,
        sourceHash: source?.contentHash,
        notes: relations.map((relation) => relation.note),
      });
      if (result.redacted.length === 0) {
        clean.push(line);
        continue;
      }
      const texts = result.fields;
      const memory = {
        ...line.memory,
        content: texts.content,
        tags: texts.tags,
        keywords: texts.keywords,
        source: source && { ...source, path: texts.sourcePath ?? source.path, contentHash: texts.sourceHash ?? null },
        relations: relations.map((relation, index) => ({ ...relation, note: texts.notes[index] })),
      };
      clean.push({ ...line, memory });
      sealed.set(memory.id, result.sealed);
      for (const { type, count } of result.redacted) counts.set(type, (counts.get(type) ?? 0) + count);
    }
    return { lines: clean, sealed, redacted: [...counts].map(([type, count]) => ({ type, count })) };
  }

  /**
   * `supersededBy` and relation targets must name a memory of the file or one the project
   * already sees; anything else would break a foreign key half-way through the insert.
   */
  private async assertReferencesResolve(fresh: ImportLine[], kept: ImportLine[], project: ProjectRef): Promise<void> {
    const local = new Set(kept.map((line) => line.memory.id));
    const refs: { line: number; path: string; id: string }[] = [];
    for (const { line, memory } of fresh) {
      if (memory.supersededBy) refs.push({ line, path: 'supersededBy', id: memory.supersededBy });
    }
    for (const { line, memory } of kept) {
      memory.relations.forEach((relation, index) =>
        refs.push({ line, path: `relations.${index}.toId`, id: relation.toId }),
      );
    }
    const outside = [...new Set(refs.filter((ref) => !local.has(ref.id)).map((ref) => ref.id))];
    const found = await this.transfer.idsInScope(outside, project.id);
    const unresolved: LineError[] = refs
      .filter((ref) => !local.has(ref.id) && !found.has(ref.id))
      .map((ref) => ({
        line: ref.line,
        path: ref.path,
        message: `memory ${ref.id} is neither in the file nor in this project`,
      }));
    if (unresolved.length > 0) throw invalidImport(unresolved);
  }

  private async enqueue(memories: readonly ExportedMemory[]): Promise<ImportResult['embedding']> {
    if (memories.length === 0) return 'unchanged';
    const tenantId = this.tenant.require('MemoryImporter.enqueue').id;
    const items = memories.map((memory) => ({
      id: memory.id,
      contentHash: memoryContentHash(memory.content, memory.keywords),
    }));
    // Bulk: jobs of BULK_JOB_SIZE that share the queue with other tenants' in turn and wait for interactive writes.
    const queued = await this.jobs.enqueueEmbedding(tenantId, 'memory', items, { origin: 'bulk' });
    return queued ? 'queued' : 'deferred';
  }
}

/** Re-importing a line is a no-op when the memory is already here, in the same place, with the same text. */
function sameMemory(found: ExistingMemory, line: ExportedMemory, project: ProjectRef): boolean {
  const samePlace = line.scope === 'tenant' ? found.projectId === null : found.projectId === project.id;
  return !found.deleted && samePlace && found.content === line.content;
}

/**
 * A line of the file as memory writes it back: a `tenant` line is a team memory without a
 * project, every other one lies in the importing project; `authorToken` is the token it
 * records as its author (importedAuthorToken).
 */
function restoredMemory(memory: ExportedMemory, projectId: string, authorToken: string | null): RestoredMemory {
  const scope = memory.scope === 'tenant' ? 'team' : memory.scope;
  return {
    id: memory.id,
    projectId: memory.scope === 'tenant' ? null : projectId,
    scope,
    content: memory.content,
    category: memory.category,
    tags: memory.tags,
    keywords: memory.keywords,
    importance: memory.importance,
    confidence: memory.confidence,
    source: memory.source,
    stale: memory.stale,
    verifiedAt: memory.verifiedAt,
    author: { ...memory.author, tokenId: authorToken },
    pinned: memory.pinned,
    version: memory.version,
    accessCount: memory.accessCount,
    lastAccessedAt: memory.lastAccessedAt,
    archivedAt: memory.archivedAt,
    sensitive: memory.sensitive ?? false,
    occurredAt: memory.occurredAt ?? memory.createdAt,
    createdAt: memory.createdAt,
    updatedAt: memory.updatedAt,
  };
}
