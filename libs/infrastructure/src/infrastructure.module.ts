import { type DynamicModule, Module } from '@nestjs/common';
import { AuditModule } from '@cairn/audit';
import { AuthModule } from '@cairn/auth';
import { type CairnConfig, ConfigModule } from '@cairn/config';
import { DatabaseModule } from '@cairn/db';
import { EmbeddingsModule, EmbeddingTargetsModule } from '@cairn/embeddings';
import { JobsModule } from '@cairn/jobs';
import { ObservabilityHttpModule, ObservabilityModule } from '@cairn/observability';
import { RedisModule } from '@cairn/redis';
import { SearchModule } from '@cairn/search';
import { ServerModule } from '@cairn/server';
import { TenancyModule } from '@cairn/tenancy';

export interface InfrastructureOptions {
  /**
   * The apps that serve tenants' requests (api, mcp-gateway) also verify session tokens and
   * write the audit log; the worker does neither.
   */
  readonly serving: boolean;
}

/**
 * What every Cairn process runs on, in one place: validated configuration, logs, metrics and
 * health routes, the HTTP server pieces, the shared database pool and tenant context, Redis,
 * the job queues, the active embedder with its targets, and search. Apps import this and then
 * only the capabilities they serve, so the three app modules cannot drift apart.
 */
@Module({})
export class InfrastructureModule {
  static forRoot(config: CairnConfig, options: InfrastructureOptions): DynamicModule {
    return {
      module: InfrastructureModule,
      imports: [
        ConfigModule.forRoot(config),
        ObservabilityModule,
        ObservabilityHttpModule,
        ServerModule,
        DatabaseModule,
        RedisModule,
        TenancyModule,
        ...(options.serving ? [AuditModule, AuthModule] : []),
        JobsModule,
        EmbeddingsModule,
        EmbeddingTargetsModule,
        SearchModule,
      ],
    };
  }
}
