import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { assertProjectAccess, authorOf, type SessionPrincipal } from '@cairn/access';
import { BadRequestError, ConflictError } from '@cairn/common';
import { JobQueue } from '@cairn/jobs';
import { type ProjectRef, ProjectResolver } from '@cairn/projects';
import { type SecretTypeCount } from '@cairn/secret-detection';
import { type RedactedTexts, SecretRedaction } from '@cairn/secrets';
import { TenantContext, TenantTransaction } from '@cairn/tenancy';
import { ContentLimit } from './content-limit.service';
import { ContradictionsService } from './contradictions.service';
import {
  assertMayDelete,
  assertMayModify,
  assertMayUpdate,
  assertMayWriteScope,
  assertMayWriteTenantWide,
  assertNotSupersededElsewhere,
  orNotFound,
  projectScope,
  viewerOf,
} from './memory-access';
import { MemorySettings } from './memory-settings.service';
import { memoryContentHash } from './memory-content';
import { IdempotencyKeysRepository, payloadDigest } from './idempotency-keys.repository';
import { SensitiveContent, withWhole } from './sensitive-content.service';
import { MemoryRelationsRepository } from './memory-relations.repository';
import { MemoryShareGrantsRepository } from './memory-share-grants.repository';
import { MemoryVersionsRepository } from './memory-versions.repository';
import {
  type ContradictionWarning,
  type Memory,
  type MemoryFields,
  type MemoryScopeLevel,
} from './contract/memory.types';
import { MemoriesRepository } from './memories.repository';
import { SYSTEM_VIEWER } from './contract/memory-viewer';

export interface StoreMemoryInput extends MemoryFields {
  /**
   * Who sees it (MEMORY_SCOPES); `tenant` stores a team memory without a project (tenant-wide,
   * the spelling from before scopes). Absent: `project`, or `private` for agents when the
   * tenant's `agentDefaultScope` says so.
   */
  readonly scope?: MemoryScopeLevel | 'tenant';
  /** Older memories this one replaces: they leave default recall but keep their history. */
  readonly supersedes: readonly string[];
  /** Backdating for imports of older knowledge; defaults to now. */
  readonly createdAt?: Date;
  /** Seal the whole content: the row keeps only its placeholder (see SecretRedaction.sealWhole). */
  readonly sensitive?: boolean;
}

export interface UpdateMemoryInput extends Partial<MemoryFields> {
  readonly reason?: string;
  /** Refuse (409 version_conflict) unless the memory is at this version. */
  readonly expectedVersion?: number;
  readonly supersedes?: readonly string[];
  /** Absent: a sensitive memory stays sensitive. `false` turns it off and then needs new content. */
  readonly sensitive?: boolean;
}

export interface WriteResult {
  readonly memory: Memory;
  readonly warnings: ContradictionWarning[];
  /** `queued` once an embedding job is on its way; `deferred` if Redis was unreachable (a sweep catches up). */
  readonly embedding: 'queued' | 'deferred' | 'unchanged';
  /** Secrets replaced by placeholders in content, tags and keywords (types and counts); empty when none. */
  readonly redacted: SecretTypeCount[];
  /** True when an idempotency key named an earlier store: the memory it stored, nothing new written. */
  readonly replayed?: boolean;
}

/**
 * Store, update and delete: each one tenant transaction, then the embedding job. Every way a
 * memory is written (REST, MCP tools, accepted extraction proposals, promoted working memory,
 * extraction jobs) comes through here, so the project scope, the content limit and secret
 * redaction (content, tags, keywords) are applied here, once, for all of them.
 */
@Injectable()
export class MemoryWriter {
  constructor(
    private readonly tx: TenantTransaction,
    private readonly tenant: TenantContext,
    private readonly resolver: ProjectResolver,
    private readonly memories: MemoriesRepository,
    private readonly versions: MemoryVersionsRepository,
    private readonly relations: MemoryRelationsRepository,
    private readonly contradictions: ContradictionsService,
    private readonly jobs: JobQueue,
    private readonly limit: ContentLimit,
    private readonly secrets: SecretRedaction,
    private readonly sealing: SensitiveContent,
    private readonly idempotency: IdempotencyKeysRepository,
    private readonly grants: MemoryShareGrantsRepository,
    private readonly settings: MemorySettings,
  ) {}

  /**
   * With an `idempotencyKey`, a repeat of the same store by the same token in the same project
   * (within 24 h) returns the memory the first one stored instead of storing it again.
   */
  async store(
    projectSlug: string,
    principal: SessionPrincipal,
    input: StoreMemoryInput,
    idempotencyKey?: string,
  ): Promise<WriteResult> {
    assertProjectAccess(principal, projectSlug);
    // Digest of the validated input (defaults applied), so REST and MCP repeats compare alike.
    const claim = idempotencyKey
      ? { key: idempotencyKey, digest: payloadDigest(JSON.parse(JSON.stringify({ projectSlug, ...input }))) }
      : undefined;
    this.limit.check(input.content);
    if (input.scope === 'tenant') assertMayWriteTenantWide(principal);
    const named = input.scope === 'tenant' ? 'team' : input.scope;
    // Refused before any work; a default scope (project or private) is never refused.
    if (named) assertMayWriteScope(principal, named);
    const sensitive = input.sensitive === true;
    // A sensitive content is sealed whole: it is neither scanned nor stored, searched or embedded.
    const whole = sensitive ? await this.secrets.sealWhole(input.content) : undefined;
    const clean = await this.secrets.redact([...(whole ? [] : [input.content]), ...input.tags, ...input.keywords]);
    const fields = split(clean, { content: input.content, tags: input.tags, keywords: input.keywords }, whole);
    let embedding: WriteResult['embedding'] = 'queued';
    const { memory, warnings, replayed } = await this.tx.run(async () => {
      const project = await this.resolver.resolve(projectSlug);
      const id = randomUUID();
      const earlier = claim ? await this.idempotency.claim(project.id, principal.tokenId, claim, id) : undefined;
      if (earlier) return { ...(await this.replay(earlier)), replayed: true };
      // Read in this transaction: one statement, not a transaction of its own per store.
      const scope = named ?? (await this.defaultScope(principal));
      const projectId = input.scope === 'tenant' ? null : project.id;
      await this.secrets.keep(withWhole(clean.sealed, whole), {
        projectId,
        sourceTable: 'memories',
        sourceId: id,
        writer: authorOf(principal),
      });
      const stored = await this.memories.insert({
        ...input,
        ...fields,
        id,
        projectId,
        scope,
        contentHash: memoryContentHash(fields.content, fields.keywords),
        author: authorOf(principal),
        sensitive,
      });
      await this.supersede(stored, input.supersedes, project, principal);
      // A placeholder contradicts nothing; the sealed content must not be compared either.
      const found = sensitive
        ? []
        : await this.contradictions.check(stored, projectScope(project, viewerOf(principal)), authorOf(principal));
      if (found.length > 0) await this.contradictions.queueForReview(project.id, stored, found);
      this.tx.onCommit(async () => {
        embedding = await this.enqueue(stored);
      });
      return { memory: stored, warnings: found, replayed: false };
    });
    if (replayed) return { memory, warnings, embedding: 'unchanged', redacted: [], replayed };
    // Inside a caller's transaction the job waits for that commit and `embedding` stays 'queued'.
    return { memory, warnings, embedding, redacted: clean.redacted };
  }

  private async replay(id: string): Promise<{ memory: Memory; warnings: ContradictionWarning[] }> {
    const memory = await this.memories.findById(id);
    if (!memory || memory.deletedAt) {
      throw new ConflictError(
        'the memory stored under this idempotency key has since been deleted; use a new key to store it again',
        'idempotency_key_stale',
      );
    }
    return { memory, warnings: [] };
  }

  async update(
    projectSlug: string,
    principal: SessionPrincipal,
    id: string,
    input: UpdateMemoryInput,
  ): Promise<WriteResult> {
    assertProjectAccess(principal, projectSlug);
    if (input.content !== undefined) this.limit.check(input.content);
    const seal = await this.sealing.planUpdate(projectSlug, principal, id, input);
    const given = { content: input.content ?? '', tags: input.tags ?? [], keywords: input.keywords ?? [] };
    const clean = await this.secrets.redact([
      ...(seal?.whole ? [] : [given.content]),
      ...given.tags,
      ...given.keywords,
    ]);
    const redactedInput = { ...input, ...pick(split(clean, given, seal?.whole), input, seal?.whole !== undefined) };
    let embedding: WriteResult['embedding'] = 'unchanged';
    const { memory, warnings } = await this.tx.run(async () => {
      const project = await this.resolver.resolve(projectSlug);
      await this.memories.findByIdForUpdate(id);
      // Visible includes shared with the caller: a write share's grantee loads a private memory here.
      const before = orNotFound(await this.memories.findVisible(id, projectScope(project, viewerOf(principal))));
      await assertMayUpdate(principal, before, (memoryId) => this.grants.grantsWrite(memoryId, principal));
      assertAtVersion(before, input.expectedVersion);
      const sensitive = seal?.sensitive ?? before.sensitive;
      if (
        seal &&
        (before.sensitive !== seal.wasSensitive ||
          (seal.readHash !== undefined && before.contentHash !== seal.readHash))
      ) {
        throw new ConflictError('the memory changed while this update was prepared; retry', 'concurrent_update');
      }
      await this.secrets.keep(withWhole(clean.sealed, seal?.whole), {
        projectId: before.projectId,
        sourceTable: 'memories',
        sourceId: id,
        writer: authorOf(principal),
      });
      const fields = mergeFields(before, redactedInput);
      const contentHash = memoryContentHash(fields.content, fields.keywords);
      const sourceChanged = input.source !== undefined && input.source?.contentHash !== before.source?.contentHash;
      await this.versions.record(before, authorOf(principal), input.reason ?? null);
      // Turning sensitive: no earlier version may keep the content in the clear.
      if (seal?.whole && !before.sensitive) await this.versions.sealContent(id, seal.whole.placeholder);
      const updated = await this.memories.update(id, fields, contentHash, sourceChanged, sensitive);
      await this.supersede(updated, input.supersedes ?? [], project, principal);
      const contentChanged = contentHash !== before.contentHash;
      const found =
        contentChanged && !sensitive
          ? await this.contradictions.check(updated, projectScope(project, viewerOf(principal)), authorOf(principal))
          : [];
      // An edit that now contradicts another author's memory goes to the review queue, as a store does.
      if (found.length > 0) await this.contradictions.queueForReview(project.id, updated, found);
      const current = (await this.memories.findById(id)) as Memory;
      if (contentChanged) {
        embedding = 'queued';
        this.tx.onCommit(async () => {
          embedding = await this.enqueue(current);
        });
      }
      return { memory: current, warnings: found };
    });
    return { memory, warnings, embedding, redacted: clean.redacted };
  }

  /**
   * Soft delete: the row stays for history and for the change feed's tombstone. With
   * `expectedVersion`, only if nobody changed the memory since that version.
   */
  async delete(projectSlug: string, principal: SessionPrincipal, id: string, expectedVersion?: number): Promise<void> {
    assertProjectAccess(principal, projectSlug);
    await this.tx.run(async () => {
      const project = await this.resolver.resolve(projectSlug);
      if (expectedVersion !== undefined) await this.memories.findByIdForUpdate(id);
      const memory = orNotFound(await this.memories.findVisible(id, projectScope(project, viewerOf(principal))));
      assertMayDelete(principal, memory);
      assertAtVersion(memory, expectedVersion);
      await this.memories.softDelete(memory.id);
    });
  }

  /**
   * A reviewer's resolution of a contradiction (memory-review): `memoryId` supersedes `oldId`
   * through the same path as `supersedes` on a write (locks, version, relation), whoever wrote
   * the old one; the caller checked the reviewer's role. Joins the caller's transaction.
   */
  async supersedeAfterReview(
    projectSlug: string,
    principal: SessionPrincipal,
    memoryId: string,
    oldId: string,
  ): Promise<void> {
    await this.tx.run(async () => {
      const project = await this.resolver.resolve(projectSlug);
      // The reviewer's role decides here, not authorship: both memories as the queue shows them.
      const memory = orNotFound(await this.memories.findVisible(memoryId, projectScope(project, SYSTEM_VIEWER)));
      await this.supersede(memory, [oldId], project, principal, true);
    });
  }

  private async supersede(
    memory: Memory,
    ids: readonly string[],
    project: ProjectRef,
    principal: SessionPrincipal,
    /** Decided by a reviewer: no authorship check on the superseded memories. */
    reviewed = false,
  ): Promise<void> {
    const targets = [...new Set(ids)].filter((target) => target !== memory.id);
    if (targets.length === 0) return;
    // Locked until commit: a concurrent supersede of the same memory waits here, then sees ours.
    await this.memories.findManyByIdForUpdate(targets);
    const viewer = reviewed ? SYSTEM_VIEWER : viewerOf(principal);
    const visible = await this.memories.findManyVisible(targets, projectScope(project, viewer));
    if (visible.length !== targets.length) {
      throw new BadRequestError('supersedes names memories that do not exist here', undefined, 'unknown_memory');
    }
    assertNotSupersededElsewhere(visible, memory.id);
    const fresh = visible.filter((old) => old.supersededBy !== memory.id);
    // Superseding retires the old memory from recall: a change to it, so only its author or a
    // maintainer may (memory.write changes one's own memories; memory.maintain anyone's).
    if (!reviewed) for (const old of fresh) assertMayModify(principal, old);
    for (const old of fresh) {
      await this.versions.record(old, authorOf(principal), `superseded by ${memory.id}`);
      await this.relations.link(memory.id, old.id, 'supersedes', null, authorOf(principal));
    }
    if (fresh.length > 0)
      await this.memories.markSuperseded(
        fresh.map((old) => old.id),
        memory.id,
      );
  }

  /** `project`, or `private` for an agent (a token naming one) when the tenant chose so. */
  private async defaultScope(principal: SessionPrincipal): Promise<MemoryScopeLevel> {
    if (principal.agentId === null) return 'project';
    return this.settings.agentDefaultScope();
  }

  private async enqueue(memory: Memory): Promise<'queued' | 'deferred'> {
    const tenantId = this.tenant.require('MemoryWriter.enqueue').id;
    const queued = await this.jobs.enqueueEmbedding(tenantId, 'memory', [
      { id: memory.id, contentHash: memory.contentHash },
    ]);
    return queued ? 'queued' : 'deferred';
  }
}

/** The optimistic-concurrency guard of update and delete: 409 when the memory moved past `expected`. */
function assertAtVersion(memory: Memory, expected: number | undefined): void {
  if (expected === undefined || memory.version === expected) return;
  throw new ConflictError(
    `the memory is at version ${memory.version}, not ${expected}: it changed since that version was read`,
    'version_conflict',
  );
}

interface RedactableFields {
  readonly content: string;
  readonly tags: readonly string[];
  readonly keywords: readonly string[];
}

/**
 * The redacted texts back in their fields (they were passed as [content, ...tags, ...keywords],
 * without the content when it was sealed whole: its placeholder stands in).
 */
function split(
  clean: RedactedTexts,
  given: RedactableFields,
  whole?: { placeholder: string },
): { content: string; tags: string[]; keywords: string[] } {
  const content = whole ? whole.placeholder : clean.texts[0];
  const labels = whole ? clean.texts : clean.texts.slice(1);
  return {
    content,
    tags: labels.slice(0, given.tags.length),
    keywords: labels.slice(given.tags.length, given.tags.length + given.keywords.length),
  };
}

/** Only the fields the update names, so an absent one keeps its stored value. */
function pick(fields: ReturnType<typeof split>, input: UpdateMemoryInput, sealed: boolean): Partial<RedactableFields> {
  return {
    ...((input.content !== undefined || sealed) && { content: fields.content }),
    ...(input.tags !== undefined && { tags: fields.tags }),
    ...(input.keywords !== undefined && { keywords: fields.keywords }),
  };
}

function mergeFields(before: Memory, input: UpdateMemoryInput): MemoryFields {
  return {
    content: input.content ?? before.content,
    category: input.category ?? before.category,
    tags: input.tags ?? before.tags,
    keywords: input.keywords ?? before.keywords,
    importance: input.importance ?? before.importance,
    confidence: input.confidence ?? before.confidence,
    source:
      input.source === undefined
        ? before.source && {
            path: before.source.path,
            line: before.source.line ?? undefined,
            contentHash: before.source.contentHash ?? undefined,
          }
        : input.source,
    pinned: input.pinned ?? before.pinned,
    occurredAt: input.occurredAt,
  };
}
