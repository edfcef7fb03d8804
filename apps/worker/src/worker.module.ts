import { type DynamicModule, Module } from '@nestjs/common';
import { InfrastructureModule } from '@cairn/infrastructure';
import { type CairnConfig } from '@cairn/config';
import { CodeIndexModule } from '@cairn/code-index';
import { EmbeddingWorkerModule } from '@cairn/embeddings';
import { ExtractionWorkerModule } from '@cairn/extraction';
import { JobWorkersModule } from '@cairn/jobs';
import { KnowledgeModule, KnowledgeWorkerModule } from '@cairn/knowledge';
import { MaintenanceWorkerModule } from '@cairn/maintenance';
import { MemoryModule } from '@cairn/memory';
import { SearchWorkerModule } from '@cairn/search';
import { SecretsWorkerModule } from '@cairn/secrets';
import { SummariesWorkerModule } from '@cairn/summaries';

/**
 * Background jobs: embeddings, knowledge-base fetches (the only pods with egress), file and session summaries, fact extraction, maintenance and
 * the keyword ranker's term statistics, the re-sealing of secrets after a data-key rotation, each library's `jobs/` handlers. Serves only health, readiness and metrics over HTTP.
 */
@Module({})
export class WorkerModule {
  static register(config: CairnConfig): DynamicModule {
    return {
      module: WorkerModule,
      imports: [
        InfrastructureModule.forRoot(config, { serving: false }),
        MemoryModule,
        KnowledgeModule,
        KnowledgeWorkerModule,
        CodeIndexModule,
        EmbeddingWorkerModule,
        SummariesWorkerModule,
        ExtractionWorkerModule,
        MaintenanceWorkerModule,
        SearchWorkerModule,
        SecretsWorkerModule,
        JobWorkersModule,
      ],
    };
  }
}
