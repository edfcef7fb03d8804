import { SNAPSHOT_EXAMPLE as EX, SqlParams, SqlSnapshot } from '@cairn/db';
import { Injectable } from '@nestjs/common';
import { TenantDb } from '@cairn/tenancy';
import { type MemoryScope } from './contract/memory-filter';
import { type DecayOptions, type PruneOptions } from './contract/memory-maintenance.types';
import { memoryScopeSql } from './memory-filter.sql';
import { EXAMPLE_SYSTEM_SCOPE } from './memory.sql-examples';

/** Scope over alias `m` (memory's one visibility rule); values through `params`. */
function scopeSql(scope: MemoryScope, params: SqlParams): string {
  return memoryScopeSql(scope, params, 'm');
}

/** Unused: neither read nor written (creation counts as use) within the window. */
function unusedSql(days: number, params: SqlParams): string {
  return `coalesce(m.last_accessed_at, m.created_at) < now() - make_interval(days => ${params.add(days)}::int)`;
}

/** Confidence decay, pruning and restore (memory-hygiene's use cases, through MemoryMaintenance); inside a tenant transaction. */
@Injectable()
export class MemoryHygieneRepository {
  constructor(private readonly db: TenantDb) {}

  /**
   * One decay step for unused, unpinned, live memories. Not a content change: the change
   * feed's `change_xid` and `updated_at` stay as they are. Never raises a confidence that is
   * already below the floor.
   */
  @SqlSnapshot({ params: [EXAMPLE_SYSTEM_SCOPE, { olderThanDays: 30, factor: 0.95, floor: 0.3 }] })
  async decay(scope: MemoryScope, options: DecayOptions): Promise<number> {
    const params = new SqlParams();
    const floor = params.add(options.floor);
    const factor = params.add(options.factor);
    const rows = await this.db.query<{ n: number }>(
      `WITH decayed AS (
         UPDATE memories m SET confidence = greatest(${floor}::real, m.confidence * ${factor}::real)
         WHERE ${scopeSql(scope, params)} AND m.deleted_at IS NULL AND m.archived_at IS NULL AND NOT m.pinned
           AND m.confidence > ${floor}::real AND m.confidence * ${factor}::real < m.confidence
           AND ${unusedSql(options.olderThanDays, params)}
         RETURNING 1
       )
       SELECT count(*)::int AS n FROM decayed`,
      params.values,
    );
    return rows[0]?.n ?? 0;
  }

  /**
   * Archives (restorably) unpinned live memories of low confidence unused within the window,
   * least recently used first, at most `limit`. The conditions are repeated in the UPDATE so
   * a memory read meanwhile by a concurrent recall is re-checked and kept.
   */
  @SqlSnapshot(
    {
      name: 'dry run',
      params: [EXAMPLE_SYSTEM_SCOPE, { maxConfidence: 0.3, olderThanDays: 90, limit: 100, dryRun: true }],
    },
    {
      name: 'archiving',
      params: [EXAMPLE_SYSTEM_SCOPE, { maxConfidence: 0.3, olderThanDays: 90, limit: 100, dryRun: false }],
    },
  )
  async prune(scope: MemoryScope, options: PruneOptions): Promise<string[]> {
    const params = new SqlParams();
    const eligible = `${scopeSql(scope, params)} AND m.deleted_at IS NULL AND m.archived_at IS NULL AND NOT m.pinned
      AND m.confidence <= ${params.add(options.maxConfidence)}::real AND ${unusedSql(options.olderThanDays, params)}`;
    const candidates = `SELECT m.id FROM memories m WHERE ${eligible}
      ORDER BY coalesce(m.last_accessed_at, m.created_at), m.id LIMIT ${params.add(options.limit)}`;
    const sql = options.dryRun
      ? candidates
      : `WITH archived AS (
           UPDATE memories m SET archived_at = now(), updated_at = now(), change_xid = pg_current_xact_id()
           WHERE m.id IN (${candidates}) AND ${eligible}
           RETURNING m.id
         )
         SELECT id FROM archived`;
    const rows = await this.db.query<{ id: string }>(sql, params.values);
    return rows.map((row) => row.id).sort();
  }

  /** Un-archives; restoring counts as use, so the next prune leaves it alone for a while. */
  @SqlSnapshot({ params: [EX.memoryId] })
  async restore(id: string): Promise<void> {
    await this.db.query(
      `UPDATE memories SET archived_at = NULL, last_accessed_at = now(), updated_at = now(),
         change_xid = pg_current_xact_id()
       WHERE id = $1 AND archived_at IS NOT NULL`,
      [id],
    );
  }

  /** Row locks in id order, so two maintainers merging overlapping memories cannot deadlock. */
  @SqlSnapshot({ params: [[EX.memoryId, EX.otherMemoryId]] })
  async lockForUpdate(ids: readonly string[]): Promise<void> {
    await this.db.query(`SELECT id FROM memories WHERE id = ANY($1::uuid[]) ORDER BY id FOR UPDATE`, [ids]);
  }
}
