import { SNAPSHOT_EXAMPLE as EX, SqlParams, SqlSnapshot } from '@cairn/db';
import { Injectable } from '@nestjs/common';
import { assertSafeModelId, type EmbeddingModel } from '@cairn/embeddings';
import { TenantDb } from '@cairn/tenancy';
import { type MemoryScope } from './contract/memory-filter';
import { type DuplicateCandidate, type DuplicateOptions, type WalkPosition } from './contract/memory-maintenance.types';
import { memoryFilterSql, privacySql } from './memory-filter.sql';
import { EXAMPLE_SCOPE, EXAMPLE_SYSTEM_SCOPE } from './memory.sql-examples';

/**
 * Content equal up to case and whitespace, as a hash. Must stay the expression of the
 * `memories_normalised_content` index (tenant migration 0015), or lookups scan the project.
 */
const normalisedContentSql = (alias: string) => `md5(lower(regexp_replace(btrim(${alias}.content), '\\s+', ' ', 'g')))`;

/**
 * Index-backed duplicate candidates (DESIGN §6 maintenance). The work per call is bounded by
 * its arguments: a page of the walk is one range scan of `memories_project_created`, and each
 * memory's partners are `perMemory` rows of the normalised-content index plus a k-NN probe of
 * the active model's partial HNSW index. Nothing here reads the whole project.
 */
@Injectable()
export class MemoryDuplicatesRepository {
  constructor(private readonly db: TenantDb) {}

  /**
   * Up to `size` live memories of the scope from `from` (inclusive) on, newest first. One
   * branch per kind of scope row (a project's, team), each an ordered index range, so
   * neither sorts the project.
   */
  @SqlSnapshot(
    { name: 'first page', params: [EXAMPLE_SCOPE, undefined, 200] },
    { name: 'from a position', params: [EXAMPLE_SCOPE, { at: '1767323045000000', id: EX.memoryId }, 200] },
    { name: "a job's, the project's memories only", params: [EXAMPLE_SYSTEM_SCOPE, undefined, 200] },
  )
  async walk(scope: MemoryScope, from: WalkPosition | undefined, size: number): Promise<WalkPosition[]> {
    const params = new SqlParams();
    // memoryFilterSql's defaults without its scope clause: the branches below place the scope.
    const live = `c.deleted_at IS NULL AND c.archived_at IS NULL AND c.superseded_by IS NULL
      AND ${privacySql(scope.viewer, params, 'c')}`;
    const after = from
      ? `AND (c.created_at, c.id) <= ('epoch'::timestamptz + ${params.add(from.at)}::bigint * interval '1 microsecond',
           ${params.add(from.id)}::uuid)`
      : '';
    const limit = params.add(size);
    const branch = (owner: string) =>
      `(SELECT c.id, c.created_at FROM memories c WHERE ${owner} AND ${live} ${after}
        ORDER BY c.created_at DESC, c.id DESC LIMIT ${limit})`;
    // Team memories come from their own branch (the memories_team index), not twice.
    const ownRows = scope.includeTenantWide ? ` AND c.scope <> 'team'` : '';
    const branches = scope.projectIds.map((id) => branch(`c.project_id = ${params.add(id)}::uuid${ownRows}`));
    if (scope.includeTenantWide) branches.push(branch(`c.scope = 'team'`));
    if (branches.length === 0) return [];
    return this.db.query<WalkPosition>(
      `SELECT w.id, (extract(epoch FROM w.created_at) * 1000000)::bigint::text AS at FROM (${branches.join(' UNION ALL ')}) w
       ORDER BY w.created_at DESC, w.id DESC LIMIT ${limit}`,
      params.values,
    );
  }

  /**
   * Each of `ids`' partners in the scope: up to `perMemory` live memories of equal normalised
   * text (lowest ids first, so a large group of copies links to its oldest-id members), and up
   * to `perMemory` nearest current vectors of the active model at or above the threshold.
   * Probes run with iterative index scans (`vectorSearchSettings`) so the scope filter cannot
   * starve them.
   */
  @SqlSnapshot({
    params: [
      EXAMPLE_SCOPE,
      { id: EX.modelId, provider: 'ollama', dimensions: 768, builtIn: false },
      [EX.memoryId],
      { threshold: 0.92, perMemory: 5 },
    ],
  })
  async partners(
    scope: MemoryScope,
    model: EmbeddingModel,
    ids: readonly string[],
    options: DuplicateOptions,
  ): Promise<DuplicateCandidate[]> {
    if (ids.length === 0) return [];
    const params = new SqlParams();
    const modelId = assertSafeModelId(model.id);
    const dims = Math.trunc(model.dimensions);
    // Owners clear a vector when its text changes, so on the partner side the model alone means
    // "current": comparing embedded_hash with content_hash there would wreck the planner's row
    // estimate and push the k-NN probe off the HNSW index (see vectorCte in libs/search).
    const current = `p.embedding_model = '${modelId}' AND p.embedded_hash = p.content_hash`;
    const vector = (alias: string) => `${alias}.embedding::vector(${dims})`;
    const k = params.add(options.perMemory);
    const filter = memoryFilterSql({ scope }, params, 'c');
    const probeIds = params.add(ids);
    const rows = await this.db.query<DuplicateCandidate>(
      `WITH probe AS MATERIALIZED (
         SELECT p.id, p.created_at, ${normalisedContentSql('p')} AS norm,
                CASE WHEN ${current} THEN p.embedding END AS embedding
         FROM memories p WHERE p.id = ANY(${probeIds}::uuid[])
       )
       SELECT p.id AS probe, s.id AS other, 1::float8 AS similarity, 'same_content' AS reason,
              (s.created_at, s.id) > (p.created_at, p.id) AS "otherFirst"
       FROM probe p
       CROSS JOIN LATERAL (
         -- OFFSET 0 keeps the lookup on the normalised-content index: flattened, ORDER BY id LIMIT k
         -- lets the planner walk the primary key instead, hashing every row (5 s a memory at 100k).
         SELECT e.id, e.created_at FROM (
           SELECT c.id, c.created_at FROM memories c
           WHERE ${normalisedContentSql('c')} = p.norm AND c.id <> p.id AND ${filter}
           OFFSET 0
         ) e
         ORDER BY e.id LIMIT ${k}
       ) s
       UNION ALL
       SELECT p.id, n.id, n.similarity, 'similar_vector', (n.created_at, n.id) > (p.created_at, p.id)
       FROM probe p
       CROSS JOIN LATERAL (
         SELECT c.id, c.created_at, (1 - (${vector('c')} <=> ${vector('p')}))::float8 AS similarity
         FROM memories c
         WHERE c.embedding_model = '${modelId}' AND c.id <> p.id AND ${filter}
         ORDER BY ${vector('c')} <=> ${vector('p')}
         LIMIT ${k}
       ) n
       WHERE p.embedding IS NOT NULL AND n.similarity >= ${params.add(options.threshold)}::float8`,
      params.values,
    );
    return rows.map((row) => ({ ...row, similarity: Math.min(1, Number(row.similarity)) }));
  }
}
