import { type DynamicModule, Module } from '@nestjs/common';
import { type CairnConfig, ConfigModule } from '@cairn/config';
import { DatabaseModule } from '@cairn/db';
import { EmbeddingsModule, EmbeddingTargetsModule, EmbeddingWorkerModule } from '@cairn/embeddings';
import { ExtractionWorkerModule } from '@cairn/extraction';
import { JobsModule, JobWorkersModule } from '@cairn/jobs';
import { KnowledgeModule } from '@cairn/knowledge';
import { MaintenanceWorkerModule } from '@cairn/maintenance';
import { MemoryModule } from '@cairn/memory';
import { ObservabilityHttpModule, ObservabilityModule } from '@cairn/observability';
import { RedisModule } from '@cairn/redis';
import { SearchModule } from '@cairn/search';
import { ServerModule } from '@cairn/server';
import { SummariesWorkerModule } from '@cairn/summaries';
import { TenancyModule } from '@cairn/tenancy';

/**
 * Background jobs: the embedding consumer (the worker issue adds summaries, extraction and
 * maintenance). Serves only health, readiness and metrics over HTTP.
 */
@Module({})
export class WorkerModule {
  static register(config: CairnConfig): DynamicModule {
    return {
      module: WorkerModule,
      imports: [
        ConfigModule.forRoot(config),
        ObservabilityModule,
        ObservabilityHttpModule,
        ServerModule,
        DatabaseModule,
        RedisModule,
        TenancyModule,
        JobsModule,
        EmbeddingsModule,
        EmbeddingTargetsModule,
        SearchModule,
        MemoryModule,
        KnowledgeModule,
        EmbeddingWorkerModule,
        SummariesWorkerModule,
        ExtractionWorkerModule,
        MaintenanceWorkerModule,
        JobWorkersModule,
      ],
    };
  }
}
