import { Global, Module } from '@nestjs/common';
import { HybridSearch } from './hybrid-search.service';
import { QueryEmbeddings } from './query-embeddings';
import { VectorScanChoice } from './vector-scan-choice';

@Global()
@Module({ providers: [HybridSearch, QueryEmbeddings, VectorScanChoice], exports: [HybridSearch] })
export class SearchModule {}
