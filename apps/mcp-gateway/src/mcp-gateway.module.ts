import { type DynamicModule, Module } from '@nestjs/common';
import { AuditModule } from '@cairn/audit';
import { AuthModule } from '@cairn/auth';
import { type CairnConfig, ConfigModule } from '@cairn/config';
import { DatabaseModule } from '@cairn/db';
import { EmbeddingsModule, EmbeddingTargetsModule } from '@cairn/embeddings';
import { JobsModule } from '@cairn/jobs';
import { ExtractionMcpModule } from '@cairn/extraction';
import { KnowledgeMcpModule } from '@cairn/knowledge';
import { McpHttpModule, McpModule } from '@cairn/mcp';
import { StatusMcpModule } from '@cairn/status';
import { MemoryMcpModule } from '@cairn/memory';
import { MemoryHygieneMcpModule } from '@cairn/memory-hygiene';
import { ObservabilityHttpModule, ObservabilityModule } from '@cairn/observability';
import { RedisModule } from '@cairn/redis';
import { SearchModule } from '@cairn/search';
import { ServerModule } from '@cairn/server';
import { SummariesMcpModule } from '@cairn/summaries';
import { TenancyModule } from '@cairn/tenancy';
import { WorkingMemoryMcpModule } from '@cairn/working-memory';

/** The MCP Streamable HTTP gateway: wiring only; tools live in the capability libraries. */
@Module({})
export class McpGatewayModule {
  static register(config: CairnConfig): DynamicModule {
    return {
      module: McpGatewayModule,
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
        McpModule,
        McpHttpModule,
        MemoryMcpModule,
        MemoryHygieneMcpModule,
        StatusMcpModule,
        WorkingMemoryMcpModule,
        KnowledgeMcpModule,
        SummariesMcpModule,
        ExtractionMcpModule,
      ],
    };
  }
}
