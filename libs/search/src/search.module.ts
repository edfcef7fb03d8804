import { Global, Module } from '@nestjs/common';
import { HybridSearch } from './hybrid-search.service';

@Global()
@Module({ providers: [HybridSearch], exports: [HybridSearch] })
export class SearchModule {}
