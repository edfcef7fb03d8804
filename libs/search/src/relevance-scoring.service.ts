import { Inject, Injectable } from '@nestjs/common';
import { EMBEDDER, type Embedder } from '@cairn/embeddings';
import { type CorpusQuery } from './contract/corpus';
import { type QueryVector } from './contract/rank-request';
import { type RelevanceScores, type ScoredRelevance } from './contract/relevance';
import { queryEntities } from './query-entities';
import { isCalibrated, relevanceCalibration, relevanceOf } from './relevance';
import { RelevanceRepository } from './relevance.repository';

/** Query terms the coverage weighs, as many as the keyword ranker scores. */
const MAX_TERMS = 24;

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
  ) {}

  async score(corpus: CorpusQuery, request: RelevanceRequest): Promise<RelevanceScores> {
    const model = this.embedder.model;
    // An uncalibrated model's cosine would be read on an unknown scale: relevance is then term coverage alone.
    const vector =
      request.queryVector?.query === request.query && isCalibrated(model) ? request.queryVector.vector : undefined;
    const signals = await this.repository.signals(corpus, {
      query: request.query,
      entities: queryEntities(request.query),
      maxTerms: MAX_TERMS,
      ids: request.ids,
      ...(vector && { semantic: { model, vector } }),
    });
    const calibration = relevanceCalibration(vector ? model : undefined);
    const byId = new Map<string, ScoredRelevance>();
    for (const [id, signal] of signals) byId.set(id, { ...signal, relevance: relevanceOf(signal, calibration) });
    return { byId, calibration };
  }
}
