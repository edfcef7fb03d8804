import { type DynamicModule, Module } from '@nestjs/common';
import { AuditHttpModule, AuditModule } from '@cairn/audit';
import { AuthHttpModule, AuthModule } from '@cairn/auth';
import { type CairnConfig, ConfigModule } from '@cairn/config';
import { DatabaseModule } from '@cairn/db';
import { EmbeddingsModule, EmbeddingTargetsModule } from '@cairn/embeddings';
import { ExtractionHttpModule } from '@cairn/extraction';
import { GenerationHttpModule } from '@cairn/generation';
import { JobsHttpModule, JobsModule } from '@cairn/jobs';
import { KnowledgeHttpModule } from '@cairn/knowledge';
import { MemoryHttpModule } from '@cairn/memory';
import { MemoryHygieneHttpModule } from '@cairn/memory-hygiene';
import { MemoryChangesHttpModule, MemoryTransferHttpModule } from '@cairn/memory-sync';
import { ObservabilityHttpModule, ObservabilityModule } from '@cairn/observability';
import { ProjectsHttpModule } from '@cairn/projects';
import { RedisModule } from '@cairn/redis';
import { SearchModule } from '@cairn/search';
import { ServerModule } from '@cairn/server';
import { SummariesHttpModule } from '@cairn/summaries';
import { TenancyHttpModule, TenancyModule } from '@cairn/tenancy';
import { WorkingMemoryHttpModule } from '@cairn/working-memory';

/** The admin and memory REST API: wiring only, behaviour lives in libs/. */
@Module({})
export class ApiModule {
  static register(config: CairnConfig): DynamicModule {
    return {
      module: ApiModule,
      imports: [
        ConfigModule.forRoot(config),
        ObservabilityModule,
        ObservabilityHttpModule,
        ServerModule,
        DatabaseModule,
        RedisModule,
        TenancyModule,
        AuditModule,
        AuthModule,
        JobsModule,
        EmbeddingsModule,
        EmbeddingTargetsModule,
        SearchModule,
        TenancyHttpModule,
        AuthHttpModule,
        ProjectsHttpModule,
        AuditHttpModule,
        MemoryHttpModule,
        MemoryChangesHttpModule,
        MemoryHygieneHttpModule,
        MemoryTransferHttpModule,
        JobsHttpModule,
        KnowledgeHttpModule,
        WorkingMemoryHttpModule,
        SummariesHttpModule,
        GenerationHttpModule,
        ExtractionHttpModule,
      ],
    };
  }
}
