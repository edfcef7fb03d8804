import { Inject, Injectable } from '@nestjs/common';
import { EMBEDDER, type Embedder } from '@cairn/embeddings';
import { TenantTransaction } from '@cairn/tenancy';
import { type CorpusQuery } from './contract/corpus';
import { type QueryVector } from './contract/rank-request';
import { type RelevanceScores, type ScoredRelevance } from './contract/relevance';
import { queryEntities } from './query-entities';
import { isCalibrated, relevanceCalibration, relevanceOf } from './relevance';
import { RelevanceRepository } from './relevance.repository';

/** Query terms the coverage weighs, as many as the keyword ranker scores. */
const MAX_TERMS = 24;

/**
 * The signals statement under a generic plan. PostgreSQL kept re-planning it on every
 * execution (its generic plan is priced above the custom one), which cost about 1.1 ms of a
 * ~2.5 ms statement at 10k memories (pgbench, prepared, same tenant: 2.56 → 1.46 ms and
 * 3.57 → 2.52 ms); its plan does not depend on the values (the ids are a key lookup, the term
 * counts one descent each). Transaction-local, set with one short statement: it also holds for
 * the statements after it in the ranking's transaction, which load the ranked rows by key.
 */
const GENERIC_PLAN = { plan_cache_mode: 'force_generic_plan' } as const;

export interface RelevanceRequest {
  /** The text the rankers got. */
  readonly query: string;
  /** Its vector, when the search used one: cosine similarity then counts. */
  readonly queryVector?: QueryVector;
  readonly ids: readonly string[];
}

/**
 * A calibrated, absolute relevance for ranked items: fused scores rank within one result list
 * and say nothing across queries, so a threshold needs signals that do (relevance.ts). Part of
 * HybridSearch's one call (a request with `relevance: true`), in the ranking's transaction and
 * over the same corpus.
 */
@Injectable()
export class RelevanceScoring {
  constructor(
    @Inject(EMBEDDER) private readonly embedder: Embedder,
    private readonly repository: RelevanceRepository,
    private readonly tx: TenantTransaction,
  ) {}

  async score(corpus: CorpusQuery, request: RelevanceRequest): Promise<RelevanceScores> {
    const model = this.embedder.model;
    // An uncalibrated model's cosine would be read on an unknown scale: relevance is then term coverage alone.
    const vector =
      request.queryVector?.query === request.query && isCalibrated(model) ? request.queryVector.vector : undefined;
    const plan = {
      query: request.query,
      entities: queryEntities(request.query),
      maxTerms: MAX_TERMS,
      ids: request.ids,
      ...(vector && { semantic: { model, vector } }),
    };
    // Nothing to score: no statement at all (the repository answers an empty map).
    const signals =
      request.ids.length === 0
        ? await this.repository.signals(corpus, plan)
        : await this.tx.run(() => this.repository.signals(corpus, plan), GENERIC_PLAN);
    const calibration = relevanceCalibration(vector ? model : undefined);
    const byId = new Map<string, ScoredRelevance>();
    for (const [id, signal] of signals) byId.set(id, { ...signal, relevance: relevanceOf(signal, calibration) });
    return { byId, calibration };
  }
}
