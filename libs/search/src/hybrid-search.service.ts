import { Inject, Injectable } from '@nestjs/common';
import { EMBEDDER, type Embedder } from '@cairn/embeddings';
import { type CorpusQuery } from './contract/corpus';
import {
  type DatedOutcome,
  type DatedRankRequest,
  type EmbedQueryOptions,
  type QueryVector,
  type RankOutcome,
  type RankRequest,
} from './contract/rank-request';
import { type Candidate, type SearchMode, type SignalName } from './contract/search.types';
import { DatedRanking } from './dated-ranking.service';
import { RankingRepository, type RenderedStatement } from './ranking.repository';
import { RelevanceScoring } from './relevance-scoring.service';
import { type RankingPlan } from './ranking.types';
import { TextRanking } from './text-ranking.service';

/**
 * The one ranking implementation for memories and the knowledge base (DESIGN §5), over a
 * corpus its owner describes (CorpusQuery: a definition and a filter, both values). Embed the
 * query first with `embedQuery`, outside any transaction; then one call ranks, inside a tenant
 * transaction opened with `vectorSearchSettings`: `rank` for a text, `rankDated` for a
 * question with dates (anchor, range filter or boost, and its fallback all happen within it).
 */
@Injectable()
export class HybridSearch {
  constructor(
    @Inject(EMBEDDER) private readonly embedder: Embedder,
    private readonly text: TextRanking,
    private readonly dated: DatedRanking,
    private readonly ranking: RankingRepository,
    private readonly relevance: RelevanceScoring,
  ) {}

  get model() {
    return this.embedder.model;
  }

  /**
   * The query's vector for `mode` (none for keyword search). Call it before opening the tenant
   * transaction and pass the result as `queryVector`, so the model call holds no connection.
   * A provider failure is not an error: the search then runs by keyword and says why.
   */
  embedQuery(query: string, mode: SearchMode, options?: EmbedQueryOptions): Promise<QueryVector> {
    return this.text.embedQuery(query, mode, options);
  }

  /**
   * The corpus's rows ranked for a text: keyword and/or semantic, fused, with boosts; with
   * `relevance: true`, each ranked row's calibrated relevance too.
   */
  async rank(corpus: CorpusQuery, request: RankRequest): Promise<RankOutcome> {
    const outcome = await this.text.rank(corpus, request);
    if (!request.relevance) return outcome;
    const ids = outcome.ranked.map((hit) => hit.id);
    const relevance = await this.relevance.score(corpus, {
      query: request.query,
      queryVector: request.queryVector,
      ids,
    });
    return { ...outcome, relevance };
  }

  /**
   * A question with dates over a corpus with a time column: see DatedRanking. With
   * `relevance: true` and text to judge by, the relevance of every row it found (text-ranked
   * or dated) against that text.
   */
  async rankDated(corpus: CorpusQuery, request: DatedRankRequest): Promise<DatedOutcome> {
    const outcome = await this.dated.rank(corpus, request);
    if (!request.relevance || request.query === undefined || !outcome.text) return outcome;
    const ids = [...new Set([...outcome.text.ranked.map((hit) => hit.id), ...outcome.dated])];
    const relevance = await this.relevance.score(corpus, {
      query: request.query,
      queryVector: request.queryVector,
      ids,
    });
    return { ...outcome, relevance };
  }

  /** Each ranker's own candidates for `plan`, before fusion: for fusion studies (bench/eval/fusion-study). */
  rankers(corpus: CorpusQuery, plan: RankingPlan): Promise<Record<SignalName, Candidate[]>> {
    return this.ranking.rank(corpus, plan);
  }

  /** The statement `rankers` sends for `plan`, rendered: for diagnostics that EXPLAIN it (bench/search). */
  statement(corpus: CorpusQuery, plan: RankingPlan): RenderedStatement {
    return this.ranking.statement(corpus, plan);
  }
}
