import { Module } from '@nestjs/common';
import { EmbeddingsModule, EmbeddingTargetsModule } from '@cairn/embeddings';
import { JobsModule } from '@cairn/jobs';
import { ProjectsModule } from '@cairn/projects';
import { RetentionModule } from '@cairn/retention';
import { SecretsModule } from '@cairn/secrets';
import { SearchModule } from '@cairn/search';
import { KbChunkEmbeddingTarget } from './kb-chunk-embedding-target.service';
import { KbChunksRepository } from './kb-chunks.repository';
import { KbDocumentChunks } from './kb-document-chunks.service';
import { KbDocumentsRepository } from './kb-documents.repository';
import { KbFetchBudgetRepository } from './kb-fetch-budget.repository';
import { KbFetchService } from './kb-fetch.service';
import { KbSearchService } from './kb-search.service';
import { KnowledgeService } from './knowledge.service';

/**
 * The project knowledge base: indexing, search, retention and the `kb_chunk` embedding
 * target. Imported by the api (through KnowledgeHttpModule), the MCP gateway and the worker.
 * The shared modules it needs are global singletons; importing them here keeps this module
 * usable on its own whichever app wires it.
 */
@Module({
  imports: [
    ProjectsModule,
    SearchModule,
    EmbeddingsModule,
    EmbeddingTargetsModule,
    JobsModule,
    SecretsModule,
    RetentionModule,
  ],
  providers: [
    KnowledgeService,
    KbDocumentChunks,
    KbSearchService,
    KbFetchService,
    KbDocumentsRepository,
    KbChunksRepository,
    KbFetchBudgetRepository,
    KbChunkEmbeddingTarget,
  ],
  exports: [KnowledgeService, KbDocumentChunks, KbSearchService, KbFetchService],
})
export class KnowledgeModule {}
