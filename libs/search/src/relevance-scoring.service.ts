import { Inject, Injectable } from '@nestjs/common';
import { EMBEDDER, type Embedder } from '@cairn/embeddings';
import { type Corpus } from './contract/corpus';
import { type ScoredRelevance } from './contract/relevance';
import { type QueryVector } from './hybrid-search.service';
import { queryEntities } from './query-entities';
import { type RankingParams } from './ranking.repository';
import { isCalibrated, type RelevanceCalibration, relevanceCalibration, relevanceOf } from './relevance';
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

export interface RelevanceScores {
  readonly byId: ReadonlyMap<string, ScoredRelevance>;
  readonly calibration: RelevanceCalibration;
}

/**
 * A calibrated, absolute relevance for ranked items: fused scores rank within one result list
 * and say nothing across queries, so a threshold needs signals that do (relevance.ts). Call it
 * inside the tenant transaction the ranking ran in, with the same corpus filter.
 */
@Injectable()
export class RelevanceScoring {
  constructor(
    @Inject(EMBEDDER) private readonly embedder: Embedder,
    private readonly repository: RelevanceRepository,
  ) {}

  async score(corpus: Corpus, params: RankingParams, request: RelevanceRequest): Promise<RelevanceScores> {
    const model = this.embedder.model;
    // An uncalibrated model's cosine would be read on an unknown scale: relevance is then term coverage alone.
    const vector =
      request.queryVector?.query === request.query && isCalibrated(model) ? request.queryVector.vector : undefined;
    const signals = await this.repository.signals(corpus, params, {
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
