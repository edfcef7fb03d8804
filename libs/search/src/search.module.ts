import { Global, Module } from '@nestjs/common';
import { CAIRN_CONFIG } from '@cairn/config';
import { RERANKER } from './contract/reranker';
import { createReranker } from './http-reranker';
import { DatedRanking } from './dated-ranking.service';
import { HybridSearch } from './hybrid-search.service';
import { QueryEmbeddings } from './query-embeddings.service';
import { QueryRewriting } from './query-rewriting.service';
import { RankingRepository } from './ranking.repository';
import { RelevanceRepository } from './relevance.repository';
import { RelevanceScoring } from './relevance-scoring.service';
import { Reranking } from './reranking.service';
import { TermStatistics } from './term-statistics.service';
import { TermStatisticsRepository } from './term-statistics.repository';
import { TextRanking } from './text-ranking.service';
import { VectorScanChoice } from './vector-scan-choice.service';

@Global()
@Module({
  providers: [
    HybridSearch,
    TextRanking,
    DatedRanking,
    QueryEmbeddings,
    QueryRewriting,
    VectorScanChoice,
    RankingRepository,
    RelevanceRepository,
    RelevanceScoring,
    TermStatistics,
    TermStatisticsRepository,
    Reranking,
    { provide: RERANKER, useFactory: createReranker, inject: [CAIRN_CONFIG] },
  ],
  exports: [HybridSearch, TermStatistics, Reranking],
})
export class SearchModule {}
