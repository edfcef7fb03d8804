import { SqlParams } from '@cairn/db';
import { Injectable } from '@nestjs/common';
import { assertSafeModelId, type EmbeddingModel } from '@cairn/embeddings';

import { TenantDb } from '@cairn/tenancy';
import { memoryFilterSql, type MemoryScope } from '@cairn/memory';

export interface DecayOptions {
  readonly olderThanDays: number;
  readonly factor: number;
  readonly floor: number;
}

export interface PruneOptions {
  readonly maxConfidence: number;
  readonly olderThanDays: number;
  readonly limit: number;
  readonly dryRun: boolean;
}

export interface VectorPairOptions {
  readonly threshold: number;
  /** How many of the most recent memories look for neighbours. */
  readonly window: number;
  /** Nearest neighbours per memory. */
  readonly neighbours: number;
}

export interface CandidatePair {
  readonly a: string;
  readonly b: string;
  readonly similarity: number;
}

/** Scope over alias `m`; values through `params`. */
function scopeSql(scope: MemoryScope, params: SqlParams): string {
  const projects = params.add(scope.projectIds);
  return `(m.project_id = ANY(${projects}::uuid[]) OR (${params.add(scope.includeTenantWide)} AND m.project_id IS NULL))`;
}

/** Unused: neither read nor written (creation counts as use) within the window. */
function unusedSql(days: number, params: SqlParams): string {
  return `coalesce(m.last_accessed_at, m.created_at) < now() - make_interval(days => ${params.add(days)}::int)`;
}

/** Confidence decay, pruning, restore and duplicate candidates; SQL only, inside a tenant transaction. */
@Injectable()
export class MemoryHygieneRepository {
  constructor(private readonly db: TenantDb) {}

  /**
   * One decay step for unused, unpinned, live memories. Not a content change: the change
   * feed's `change_xid` and `updated_at` stay as they are. Never raises a confidence that is
   * already below the floor.
   */
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
  async restore(id: string): Promise<void> {
    await this.db.query(
      `UPDATE memories SET archived_at = NULL, last_accessed_at = now(), updated_at = now(),
         change_xid = pg_current_xact_id()
       WHERE id = $1 AND archived_at IS NOT NULL`,
      [id],
    );
  }

  /** Row locks in id order, so two maintainers merging overlapping memories cannot deadlock. */
  async lockForUpdate(ids: readonly string[]): Promise<void> {
    await this.db.query(`SELECT id FROM memories WHERE id = ANY($1::uuid[]) ORDER BY id FOR UPDATE`, [ids]);
  }

  /** Pairs (a < b) of live memories whose content is equal up to case and whitespace. */
  async sameContentPairs(scope: MemoryScope, limit: number): Promise<CandidatePair[]> {
    const params = new SqlParams();
    return this.db.query<CandidatePair>(
      `WITH live AS MATERIALIZED (
         SELECT c.id, md5(lower(regexp_replace(btrim(c.content), '\\s+', ' ', 'g'))) AS norm
         FROM memories c WHERE ${memoryFilterSql({ scope }, params, 'c')}
       )
       SELECT x.id AS a, y.id AS b, 1::float8 AS similarity
       FROM live x JOIN live y ON x.norm = y.norm AND x.id < y.id
       ORDER BY x.id, y.id LIMIT ${params.add(limit)}`,
      params.values,
    );
  }

  /**
   * Near neighbours by cosine similarity between current vectors of the active model: for
   * each of the `window` most recent memories, a k-NN probe on the model's partial HNSW index
   * (same expression and predicate as the index, so the planner uses it; run with iterative
   * scans so the scope filter cannot starve a probe). Work is bounded by window × neighbours.
   * Pairs come back unordered within themselves; the caller normalises them.
   */
  async similarVectorPairs(
    scope: MemoryScope,
    model: EmbeddingModel,
    options: VectorPairOptions,
  ): Promise<CandidatePair[]> {
    const params = new SqlParams();
    const modelId = assertSafeModelId(model.id);
    const dims = Math.trunc(model.dimensions);
    const current = `c.embedding_model = '${modelId}' AND c.embedded_hash = c.content_hash`;
    return this.db.query<CandidatePair>(
      `WITH recent AS MATERIALIZED (
         SELECT c.id, c.embedding FROM memories c
         WHERE ${current} AND ${memoryFilterSql({ scope }, params, 'c')}
         ORDER BY c.created_at DESC, c.id LIMIT ${params.add(options.window)}
       )
       SELECT r.id AS a, n.id AS b, n.similarity
       FROM recent r
       CROSS JOIN LATERAL (
         SELECT c.id, (1 - (c.embedding::vector(${dims}) <=> r.embedding::vector(${dims})))::float8 AS similarity
         FROM memories c
         WHERE ${current} AND c.id <> r.id AND ${memoryFilterSql({ scope }, params, 'c')}
         ORDER BY c.embedding::vector(${dims}) <=> r.embedding::vector(${dims})
         LIMIT ${params.add(options.neighbours)}
       ) n
       WHERE n.similarity >= ${params.add(options.threshold)}::float8`,
      params.values,
    );
  }
}
