import { Module } from '@nestjs/common';
import { KnowledgeModule } from '../knowledge.module';
import { KbDocumentsController } from './kb-documents.controller';
import { KbFetchController } from './kb-fetch.controller';
import { KbSearchController } from './kb-search.controller';

/** Knowledge-base REST routes; api app only. */
@Module({ imports: [KnowledgeModule], controllers: [KbDocumentsController, KbFetchController, KbSearchController] })
export class KnowledgeHttpModule {}
