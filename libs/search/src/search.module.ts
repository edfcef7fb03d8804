import { Global, Module } from '@nestjs/common';
import { HybridSearch } from './hybrid-search.service';
import { VectorScanChoice } from './vector-scan-choice';

@Global()
@Module({ providers: [HybridSearch, VectorScanChoice], exports: [HybridSearch] })
export class SearchModule {}
