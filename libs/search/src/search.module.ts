import { Global, Module } from '@nestjs/common';
import { HybridSearch } from './hybrid-search.service';
import { QueryEmbeddings } from './query-embeddings.service';
import { RankingRepository } from './ranking.repository';
import { TermStatistics } from './term-statistics.service';
import { TermStatisticsRepository } from './term-statistics.repository';
import { VectorScanChoice } from './vector-scan-choice.service';

@Global()
@Module({
  providers: [
    HybridSearch,
    QueryEmbeddings,
    VectorScanChoice,
    RankingRepository,
    TermStatistics,
    TermStatisticsRepository,
  ],
  exports: [HybridSearch, TermStatistics],
})
export class SearchModule {}
