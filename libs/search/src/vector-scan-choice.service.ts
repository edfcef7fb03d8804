import { Injectable } from '@nestjs/common';
import { type EmbeddingModel } from '@cairn/embeddings';
import { TenantContext } from '@cairn/tenancy';
import { LRUCache } from 'lru-cache';
import { RankingRepository } from './ranking.repository';

/**
 * Rows × dimensions up to which the semantic ranker compares every vector instead of walking
 * the HNSW graph. Measured on pgvector 0.8 (768 dims, LIMIT 50): 1,000 rows 1.7 ms either
 * way, 5,000 rows 11 ms exact vs 1.7 ms by index; so about 2,000 rows of 768 dims
 * (4,000 of 384) stay within a few milliseconds.
 */
export const EXACT_SCAN_BUDGET = 1_500_000;
const CACHE_MS = 60_000;
const CACHE_MAX_ENTRIES = 10_000;

/**
 * Chooses between exact and approximate vector search for a tenant's corpus.
 *
 * HNSW can leave a vector unreachable: a text unlike the rest (one billing note among a
 * hundred near-identical routine notes) links to its neighbours on insert, but they prune
 * the links back to it in favour of closer ones, so no search ever arrives there. In a big
 * corpus that costs a little recall; in a small one, which is most teams' memory, it means
 * a memory that semantic search never returns. Small corpora are therefore ranked exactly,
 * which at that size costs what the index costs. The size is counted with a bounded scan
 * and cached per tenant, table and model for a minute.
 */
@Injectable()
export class VectorScanChoice {
  private readonly seen = new LRUCache<string, boolean>({ max: CACHE_MAX_ENTRIES, ttl: CACHE_MS });

  constructor(
    private readonly ranking: RankingRepository,
    private readonly tenant: TenantContext,
  ) {}

  /** Whether `table`'s vectors of `model` are few enough to compare them all. Call inside a tenant transaction. */
  async exact(table: string, model: EmbeddingModel): Promise<boolean> {
    const schema = this.tenant.require('VectorScanChoice').schema;
    const key = `${schema}\u0000${table}\u0000${model.id}`;
    const cached = this.seen.get(key);
    if (cached !== undefined) return cached;
    const maxRows = exactScanRowLimit(model.dimensions);
    const exact = (await this.ranking.countVectors(table, model, maxRows)) <= maxRows;
    this.seen.set(key, exact);
    return exact;
  }
}

/** Largest row count ranked exactly for vectors of `dimensions`. */
export function exactScanRowLimit(dimensions: number): number {
  return Math.floor(EXACT_SCAN_BUDGET / Math.max(1, Math.trunc(dimensions)));
}
