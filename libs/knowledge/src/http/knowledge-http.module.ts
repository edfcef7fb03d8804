import { Module } from '@nestjs/common';
import { KnowledgeModule } from '../knowledge.module';
import { KbDocumentsController } from './kb-documents.controller';
import { KbSearchController } from './kb-search.controller';

/** Knowledge-base REST routes; api app only. */
@Module({ imports: [KnowledgeModule], controllers: [KbDocumentsController, KbSearchController] })
export class KnowledgeHttpModule {}
