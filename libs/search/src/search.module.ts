import { Global, Module } from '@nestjs/common';
import { HybridSearch } from './hybrid-search.service';
import { QueryEmbeddings } from './query-embeddings.service';
import { RankingRepository } from './ranking.repository';
import { VectorScanChoice } from './vector-scan-choice.service';

@Global()
@Module({ providers: [HybridSearch, QueryEmbeddings, VectorScanChoice, RankingRepository], exports: [HybridSearch] })
export class SearchModule {}
