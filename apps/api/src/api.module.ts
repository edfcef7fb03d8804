import { type DynamicModule, Module } from '@nestjs/common';
import { InfrastructureModule } from '@cairn/infrastructure';
import { AccountsHttpModule } from '@cairn/accounts';
import { AuditHttpModule } from '@cairn/audit';
import { AuthHttpModule } from '@cairn/auth';
import { type CairnConfig } from '@cairn/config';
import { CodeIndexHttpModule } from '@cairn/code-index';
import { CoordinationHttpModule } from '@cairn/coordination';
import { ExtractionHttpModule } from '@cairn/extraction';
import { GenerationHttpModule } from '@cairn/generation';
import { JobsHttpModule } from '@cairn/jobs';
import { KnowledgeHttpModule } from '@cairn/knowledge';
import { MemoryHttpModule } from '@cairn/memory';
import { OAuthHttpModule } from '@cairn/oauth';
import { MemoryHygieneHttpModule } from '@cairn/memory-hygiene';
import { MemorySharingHttpModule } from '@cairn/memory-sharing';
import { MemoryReviewHttpModule } from '@cairn/memory-review';
import { MemoryChangesHttpModule, MemoryTransferHttpModule } from '@cairn/memory-sync';
import { ProjectCardHttpModule } from '@cairn/project-card';
import { ProjectsHttpModule } from '@cairn/projects';
import { SecretsHttpModule } from '@cairn/secrets';
import { StatusHttpModule } from '@cairn/status';
import { SummariesHttpModule } from '@cairn/summaries';
import { TenancyHttpModule } from '@cairn/tenancy';
import { WebConsoleHttpModule } from '@cairn/web-console';
import { WorkingMemoryHttpModule } from '@cairn/working-memory';

/** The admin and memory REST API: wiring only, behaviour lives in libs/. */
@Module({})
export class ApiModule {
  static register(config: CairnConfig): DynamicModule {
    return {
      module: ApiModule,
      imports: [
        InfrastructureModule.forRoot(config, { serving: true }),
        TenancyHttpModule,
        AuthHttpModule,
        AccountsHttpModule,
        OAuthHttpModule,
        ProjectsHttpModule,
        AuditHttpModule,
        MemoryHttpModule,
        MemoryChangesHttpModule,
        MemoryHygieneHttpModule,
        MemoryReviewHttpModule,
        MemoryTransferHttpModule,
        MemorySharingHttpModule,
        JobsHttpModule,
        KnowledgeHttpModule,
        CodeIndexHttpModule,
        WorkingMemoryHttpModule,
        SummariesHttpModule,
        ProjectCardHttpModule,
        GenerationHttpModule,
        ExtractionHttpModule,
        SecretsHttpModule,
        CoordinationHttpModule,
        StatusHttpModule,
        WebConsoleHttpModule,
      ],
    };
  }
}
