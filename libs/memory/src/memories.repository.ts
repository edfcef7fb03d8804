import { NoSqlSnapshot, SNAPSHOT_EXAMPLE as EX, SqlParams, SqlSnapshot } from '@cairn/db';
import { Injectable } from '@nestjs/common';
import { ProjectResolver } from '@cairn/projects';

import { TenantDb } from '@cairn/tenancy';
import { type MemoryFilter, type MemoryScope } from './contract/memory-filter';
import { type CorpusQuery } from '@cairn/search';
import { memoryCorpus } from './memory-corpus.sql';
import { memoryFilterSql, memoryScopeSql } from './memory-filter.sql';
import { MEMORY_COLUMNS, type MemoryRow, toMemories } from './memory-row.sql';
import { droppedTagNoticesSql } from './memory-shares.sql';
import { type Memory, type MemoryFields, type MemoryScopeLevel } from './contract/memory.types';
import {
  EXAMPLE_FIELDS,
  EXAMPLE_FULL_FILTER,
  EXAMPLE_READER,
  EXAMPLE_SCOPE,
  EXAMPLE_SYSTEM_SCOPE,
} from './memory.sql-examples';

export interface NewMemory extends MemoryFields {
  readonly id: string;
  readonly projectId: string | null;
  /** Who sees it; a memory without a project is always `team`. */
  readonly scope: MemoryScopeLevel;
  readonly contentHash: string;
  readonly author: { readonly userId: string | null; readonly agentId: string | null; readonly tokenId: string };
  readonly createdAt?: Date;
  /** The content is the placeholder of a sealed original (default false). */
  readonly sensitive?: boolean;
}

/** Long-term memories of the current tenant; every call runs inside a tenant transaction. */
@Injectable()
export class MemoriesRepository {
  constructor(
    private readonly db: TenantDb,
    private readonly projects: ProjectResolver,
  ) {}

  @SqlSnapshot({
    params: [
      {
        ...EXAMPLE_FIELDS,
        id: EX.newMemoryId,
        projectId: EX.projectId,
        scope: 'project',
        contentHash: EX.contentHash,
        author: EXAMPLE_READER,
        createdAt: EX.date,
      },
    ],
  })
  async insert(memory: NewMemory): Promise<Memory> {
    const rows = await this.db.query<MemoryRow>(
      `WITH m AS (
         INSERT INTO memories (id, project_id, content, content_hash, category, tags, keywords, importance, confidence,
           source_path, source_line, source_hash, pinned, author_user_id, author_agent_id, author_token_id,
           created_at, updated_at, occurred_at, sensitive, scope)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16,
           coalesce($17, now()), coalesce($17, now()), coalesce($18, $17, now()), $19, $20)
         RETURNING *
       )
       SELECT ${MEMORY_COLUMNS} FROM m`,
      [
        memory.id,
        memory.projectId,
        memory.content,
        memory.contentHash,
        memory.category,
        memory.tags,
        memory.keywords,
        memory.importance,
        memory.confidence,
        memory.source?.path ?? null,
        memory.source?.line ?? null,
        memory.source?.contentHash ?? null,
        memory.pinned,
        memory.author.userId,
        memory.author.agentId,
        memory.author.tokenId,
        memory.createdAt ?? null,
        memory.occurredAt ?? null,
        memory.sensitive ?? false,
        memory.scope,
      ],
    );
    return (await toMemories(rows, this.projects))[0];
  }

  /** Any state, deleted included: for checks and history. */
  @SqlSnapshot({ params: [EX.memoryId] })
  async findById(id: string): Promise<Memory | null> {
    const rows = await this.db.query<MemoryRow>(`SELECT ${MEMORY_COLUMNS} FROM memories m WHERE m.id = $1`, [id]);
    return (await toMemories(rows, this.projects))[0] ?? null;
  }

  /** A live memory `scope` may see (memoryScopeSql), or null: the read of every get by id. */
  @SqlSnapshot({ params: [EX.memoryId, EXAMPLE_SCOPE] })
  async findVisible(id: string, scope: MemoryScope): Promise<Memory | null> {
    return (await this.findManyVisible([id], scope))[0] ?? null;
  }

  /** The live memories among `ids` that `scope` may see, in no particular order. */
  @SqlSnapshot(
    { name: 'a reader', params: [[EX.memoryId, EX.otherMemoryId], EXAMPLE_SCOPE] },
    { name: 'a job', params: [[EX.memoryId, EX.otherMemoryId], EXAMPLE_SYSTEM_SCOPE] },
  )
  async findManyVisible(ids: readonly string[], scope: MemoryScope): Promise<Memory[]> {
    if (ids.length === 0) return [];
    const params = new SqlParams();
    const where = memoryScopeSql(scope, params, 'm');
    const rows = await this.db.query<MemoryRow>(
      `SELECT ${MEMORY_COLUMNS} FROM memories m
       WHERE m.id = ANY(${params.add(ids)}::uuid[]) AND m.deleted_at IS NULL AND ${where}`,
      params.values,
    );
    return toMemories(rows, this.projects);
  }

  /**
   * Like findById, with the row locked until the transaction ends, so two concurrent
   * updates of one memory apply one after the other instead of one overwriting the other.
   */
  @SqlSnapshot({ params: [EX.memoryId] })
  async findByIdForUpdate(id: string): Promise<Memory | null> {
    await this.db.query('SELECT 1 FROM memories WHERE id = $1 FOR UPDATE', [id]);
    return this.findById(id);
  }

  /** Live memories among `ids`, in no particular order. */
  @SqlSnapshot({ params: [[EX.memoryId, EX.otherMemoryId]] })
  async findManyById(ids: readonly string[]): Promise<Memory[]> {
    if (ids.length === 0) return [];
    const rows = await this.db.query<MemoryRow>(
      `SELECT ${MEMORY_COLUMNS} FROM memories m WHERE m.id = ANY($1::uuid[]) AND m.deleted_at IS NULL`,
      [ids],
    );
    return toMemories(rows, this.projects);
  }

  /**
   * Live memories among `ids`, each row locked until the transaction ends (taken in id order,
   * so two transactions locking overlapping sets cannot deadlock): what the caller then reads
   * of them (who superseded them) stays true until it commits.
   */
  @SqlSnapshot({ params: [[EX.memoryId, EX.otherMemoryId]] })
  async findManyByIdForUpdate(ids: readonly string[]): Promise<Memory[]> {
    if (ids.length === 0) return [];
    await this.db.query('SELECT 1 FROM memories WHERE id = ANY($1::uuid[]) ORDER BY id FOR UPDATE', [ids]);
    return this.findManyById(ids);
  }

  /** Newest first; keyset pagination on (created_at, id) with the last id seen as cursor. */
  @SqlSnapshot(
    { name: "a reader's first page", params: [{ scope: EXAMPLE_SCOPE }, 20] },
    { name: 'every filter, after a memory', params: [EXAMPLE_FULL_FILTER, 20, EX.memoryId] },
  )
  async list(filter: MemoryFilter, limit: number, afterId?: string): Promise<Memory[]> {
    const params = new SqlParams();
    const where = memoryFilterSql(filter, params, 'm');
    const after = afterId
      ? ` AND (m.created_at, m.id) < (SELECT c.created_at, c.id FROM memories c WHERE c.id = ${params.add(afterId)}::uuid)`
      : '';
    const rows = await this.db.query<MemoryRow>(
      `SELECT ${MEMORY_COLUMNS} FROM memories m WHERE ${where}${after}
       ORDER BY m.created_at DESC, m.id DESC LIMIT ${params.add(limit)}`,
      params.values,
    );
    return toMemories(rows, this.projects);
  }

  /** Memories matching `filter` as a corpus for HybridSearch (recall): a value, rendered by search's one statement. */
  @NoSqlSnapshot(
    'returns the corpus as a value: search renders its condition inside the ranking statements (libs/search/sql, libs/memory/sql/memory-corpus.sql)',
  )
  rankable(filter: MemoryFilter): CorpusQuery {
    return memoryCorpus(filter);
  }

  /** Replaces the writable fields; bumps the version and the change cursor. */
  @SqlSnapshot({ params: [EX.memoryId, EXAMPLE_FIELDS, EX.contentHash, true, false] })
  async update(
    id: string,
    fields: MemoryFields,
    contentHash: string,
    sourceChanged: boolean,
    /** Absent: unchanged. */
    sensitive?: boolean,
  ): Promise<Memory> {
    // The notice CTE reads the row as it was (one snapshot for the whole statement): old tags.
    await this.db.query(
      `WITH dropped AS (${droppedTagNoticesSql('$1::uuid', '$5')})
       UPDATE memories SET content = $2, content_hash = $3, category = $4, tags = $5, keywords = $6, importance = $7,
         confidence = $8, source_path = $9, source_line = $10, source_hash = $11, pinned = $12,
         stale = CASE WHEN $13 THEN false ELSE stale END, occurred_at = coalesce($14, occurred_at),
         sensitive = coalesce($15, sensitive),
         -- A vector of old content must never rank the new content: drop it until re-embedded.
         embedding = CASE WHEN content_hash = $3 THEN embedding END,
         embedding_model = CASE WHEN content_hash = $3 THEN embedding_model END,
         embedded_hash = CASE WHEN content_hash = $3 THEN embedded_hash END,
         embedded_at = CASE WHEN content_hash = $3 THEN embedded_at END,
         version = version + 1, updated_at = now(), change_xid = pg_current_xact_id()
       WHERE id = $1`,
      [
        id,
        fields.content,
        contentHash,
        fields.category,
        fields.tags,
        fields.keywords,
        fields.importance,
        fields.confidence,
        fields.source?.path ?? null,
        fields.source?.line ?? null,
        fields.source?.contentHash ?? null,
        fields.pinned,
        sourceChanged,
        fields.occurredAt ?? null,
        sensitive ?? null,
      ],
    );
    return (await this.findById(id)) as Memory;
  }

  @SqlSnapshot({ params: [EX.memoryId] })
  async softDelete(id: string): Promise<void> {
    await this.db.query(
      `UPDATE memories SET deleted_at = now(), updated_at = now(), change_xid = pg_current_xact_id()
       WHERE id = $1 AND deleted_at IS NULL`,
      [id],
    );
  }

  /**
   * Marks `ids` as replaced by `byId`: they leave default recall but keep their history.
   * Callers lock the rows first (findManyByIdForUpdate) and refuse those already replaced.
   */
  @SqlSnapshot({ params: [[EX.otherMemoryId], EX.memoryId] })
  async markSuperseded(ids: readonly string[], byId: string): Promise<void> {
    await this.db.query(
      `UPDATE memories SET superseded_by = $2, updated_at = now(), change_xid = pg_current_xact_id()
       WHERE id = ANY($1::uuid[]) AND id <> $2`,
      [ids, byId],
    );
  }

  @SqlSnapshot({ params: [EX.memoryId, true] })
  async setStale(id: string, stale: boolean): Promise<Memory> {
    await this.db.query(
      `UPDATE memories SET stale = $2, verified_at = now(), updated_at = now(), change_xid = pg_current_xact_id()
       WHERE id = $1`,
      [id, stale],
    );
    return (await this.findById(id)) as Memory;
  }

  /**
   * Reading is using: recalled memories gain confidence (bounded, +0.02 a time) and their
   * access is counted. Called with counts aggregated over a short interval, off the request path.
   */
  @SqlSnapshot({ params: [new Map([[EX.memoryId, 2]])] })
  async applyAccess(counts: ReadonlyMap<string, number>): Promise<void> {
    if (counts.size === 0) return;
    await this.db.query(
      `UPDATE memories m SET access_count = m.access_count + u.n, last_accessed_at = now(),
         confidence = least(1.0, m.confidence + 0.02 * u.n)
       FROM unnest($1::uuid[], $2::int[]) AS u(id, n)
       WHERE m.id = u.id`,
      [[...counts.keys()], [...counts.values()]],
    );
  }
}
