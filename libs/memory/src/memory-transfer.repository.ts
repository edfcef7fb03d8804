import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { type Author } from '@cairn/access';
import { SNAPSHOT_EXAMPLE as EX, SqlParams, SqlSnapshot } from '@cairn/db';
import { ProjectResolver } from '@cairn/projects';
import { TenantDb } from '@cairn/tenancy';
import { type MemoryScope } from './contract/memory-filter';
import { type ExistingMemory, type RestoredMemory, type RestoredRelation } from './contract/memory-sync.types';
import { type Memory } from './contract/memory.types';
import { memoryContentHash } from './memory-content';
import { memoryScopeSql } from './memory-filter.sql';
import { MEMORY_COLUMNS, type MemoryRow, toMemories } from './memory-row.sql';
import { EXAMPLE_READER, EXAMPLE_RESTORED, EXAMPLE_SCOPE, EXAMPLE_SYSTEM_SCOPE } from './memory.sql-examples';

/** Bulk reads and writes of export and import; each call runs inside a tenant transaction. */
@Injectable()
export class MemoryTransferRepository {
  constructor(
    private readonly db: TenantDb,
    private readonly projects: ProjectResolver,
  ) {}

  /**
   * Live memories `scope` sees (memory's visibility rule), by id. Ids survive an
   * import unchanged, so this order is the same in any tenant the file goes to (creation
   * times lose their microseconds on the way and could tie).
   */
  @SqlSnapshot(
    { name: "the admin's backup", params: [EXAMPLE_SYSTEM_SCOPE, EX.memoryId, 500] },
    { name: "a reader's export", params: [EXAMPLE_SCOPE, EX.memoryId, 500] },
  )
  async exportPage(scope: MemoryScope, afterId: string | null, limit: number): Promise<Memory[]> {
    const params = new SqlParams();
    const where = memoryScopeSql(scope, params, 'm');
    const after = params.add(afterId);
    const rows = await this.db.query<MemoryRow>(
      `SELECT ${MEMORY_COLUMNS} FROM memories m
       WHERE m.deleted_at IS NULL AND ${where} AND (${after}::uuid IS NULL OR m.id > ${after}::uuid)
       ORDER BY m.id LIMIT ${params.add(limit)}`,
      params.values,
    );
    return toMemories(rows, this.projects);
  }

  /** Outgoing relations of `ids` whose target is itself in the export (live and in scope). */
  @SqlSnapshot({ params: [[EX.memoryId, EX.otherMemoryId], EXAMPLE_SYSTEM_SCOPE] })
  async exportRelations(ids: readonly string[], scope: MemoryScope): Promise<RestoredRelation[]> {
    if (ids.length === 0) return [];
    const params = new SqlParams();
    const from = params.add(ids);
    return this.db.query<RestoredRelation>(
      `SELECT r.from_id AS "fromId", r.to_id AS "toId", r.type, r.note
       FROM memory_relations r JOIN memories t ON t.id = r.to_id
       WHERE r.from_id = ANY(${from}::uuid[]) AND t.deleted_at IS NULL AND ${memoryScopeSql(scope, params, 't')}
       ORDER BY r.from_id, r.type, r.to_id`,
      params.values,
    );
  }

  /** Any memory of the tenant with one of these ids, deleted ones included. */
  @SqlSnapshot({ params: [[EX.memoryId, EX.newMemoryId]] })
  async findExisting(ids: readonly string[]): Promise<ExistingMemory[]> {
    if (ids.length === 0) return [];
    return this.db.query<ExistingMemory>(
      `SELECT id, project_id AS "projectId", content, deleted_at IS NOT NULL AS deleted
       FROM memories WHERE id = ANY($1::uuid[])`,
      [ids],
    );
  }

  /** Of `ids`, those the project sees (its own or tenant-wide), in any state. */
  @SqlSnapshot({ params: [[EX.memoryId, EX.newMemoryId], EX.projectId] })
  async idsInScope(ids: readonly string[], projectId: string): Promise<Set<string>> {
    if (ids.length === 0) return new Set();
    const rows = await this.db.query<{ id: string }>(
      `SELECT id FROM memories WHERE id = ANY($1::uuid[]) AND (project_id = $2 OR scope = 'team')`,
      [ids, projectId],
    );
    return new Set(rows.map((row) => row.id));
  }

  /**
   * Inserts memories exactly as exported: ids, timestamps, version, access statistics and
   * state kept. `superseded_by` is set afterwards (see `restoreSuperseded`), once every row
   * it may point to exists. Returns how many were written: an id that a concurrent import
   * wrote meanwhile is skipped here rather than failing on the primary key.
   */
  @SqlSnapshot({ params: [[EXAMPLE_RESTORED]] })
  async insertRestored(memories: readonly RestoredMemory[]): Promise<number> {
    if (memories.length === 0) return 0;
    const records = memories.map((m) => ({
      id: m.id,
      project_id: m.projectId,
      scope: m.scope,
      content: m.content,
      content_hash: memoryContentHash(m.content, m.keywords),
      category: m.category,
      tags: m.tags,
      keywords: m.keywords,
      importance: m.importance,
      confidence: m.confidence,
      source_path: m.source?.path ?? null,
      source_line: m.source?.line ?? null,
      source_hash: m.source?.contentHash ?? null,
      stale: m.stale,
      verified_at: m.verifiedAt,
      author_user_id: m.author.userId,
      author_agent_id: m.author.agentId,
      author_token_id: m.author.tokenId,
      pinned: m.pinned,
      version: m.version,
      access_count: m.accessCount,
      last_accessed_at: m.lastAccessedAt,
      archived_at: m.archivedAt,
      sensitive: m.sensitive,
      occurred_at: m.occurredAt,
      created_at: m.createdAt,
      updated_at: m.updatedAt,
    }));
    const rows = await this.db.query<{ n: number }>(
      `WITH inserted AS (
       INSERT INTO memories (id, project_id, content, content_hash, category, tags, keywords, importance, confidence,
         source_path, source_line, source_hash, stale, verified_at, author_user_id, author_agent_id, author_token_id,
         pinned, version, access_count, last_accessed_at, archived_at, occurred_at, created_at, updated_at, sensitive, scope)
       SELECT r.id, r.project_id, r.content, r.content_hash, r.category, r.tags, r.keywords, r.importance, r.confidence,
         r.source_path, r.source_line, r.source_hash, r.stale, r.verified_at, r.author_user_id, r.author_agent_id, r.author_token_id,
         r.pinned, r.version, r.access_count, r.last_accessed_at, r.archived_at, r.occurred_at, r.created_at,
         r.updated_at, r.sensitive, r.scope
       FROM jsonb_to_recordset($1::jsonb) AS r(id uuid, project_id uuid, content text, content_hash text, category text,
         tags text[], keywords text[], importance smallint, confidence real, source_path text, source_line integer,
         source_hash text, stale boolean, verified_at timestamptz, author_user_id uuid, author_agent_id text, author_token_id uuid,
         pinned boolean, version integer, access_count integer, last_accessed_at timestamptz, archived_at timestamptz,
         occurred_at timestamptz, created_at timestamptz, updated_at timestamptz, sensitive boolean, scope text)
       ON CONFLICT (id) DO NOTHING RETURNING 1
       )
       SELECT count(*)::int AS n FROM inserted`,
      [JSON.stringify(records)],
    );
    return rows[0]?.n ?? 0;
  }

  /**
   * Fresh planner statistics for the memories table. Ranking itself reads the write path's term
   * statistics, but its plans use the planner's: right after a bulk import, until autovacuum's
   * next ANALYZE (up to a minute, its naptime), a recall on 10k new rows took ~4x as long.
   */
  @SqlSnapshot({ params: [] })
  async refreshPlannerStatistics(): Promise<void> {
    await this.db.query('ANALYZE memories');
  }

  /** Same transaction as the insert: no change_xid or updated_at to bump. */
  @SqlSnapshot({ params: [[{ id: EX.otherMemoryId, by: EX.memoryId }]] })
  async restoreSuperseded(pairs: readonly { id: string; by: string }[]): Promise<void> {
    if (pairs.length === 0) return;
    await this.db.query(
      `UPDATE memories m SET superseded_by = r.by
       FROM jsonb_to_recordset($1::jsonb) AS r(id uuid, by uuid) WHERE m.id = r.id`,
      [JSON.stringify(pairs)],
    );
  }

  /** Idempotent: relations that already exist are kept as they are. */
  @SqlSnapshot({
    params: [[{ fromId: EX.memoryId, toId: EX.otherMemoryId, type: 'related_to', note: null }], EXAMPLE_READER],
  })
  async insertRelations(relations: readonly RestoredRelation[], by: Author): Promise<void> {
    if (relations.length === 0) return;
    const records = relations.map((r) => ({
      id: randomUUID(),
      from_id: r.fromId,
      to_id: r.toId,
      type: r.type,
      note: r.note,
    }));
    await this.db.query(
      `INSERT INTO memory_relations (id, from_id, to_id, type, note, created_by_user_id, created_by_agent_id)
       SELECT r.id, r.from_id, r.to_id, r.type, r.note, $2, $3
       FROM jsonb_to_recordset($1::jsonb) AS r(id uuid, from_id uuid, to_id uuid, type text, note text)
       ON CONFLICT (from_id, to_id, type) DO NOTHING`,
      [JSON.stringify(records), by.userId, by.agentId],
    );
  }
}
