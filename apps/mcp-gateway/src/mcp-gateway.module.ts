import { type DynamicModule, Module } from '@nestjs/common';
import { InfrastructureModule } from '@cairn/infrastructure';
import { type CairnConfig } from '@cairn/config';
import { CodeIndexMcpModule } from '@cairn/code-index';
import { ContextCheckMcpModule } from '@cairn/context-check';
import { CoordinationMcpModule } from '@cairn/coordination';
import { ExtractionMcpModule } from '@cairn/extraction';
import { KnowledgeMcpModule } from '@cairn/knowledge';
import { McpHttpModule, McpModule } from '@cairn/mcp';
import { StatusMcpModule } from '@cairn/status';
import { MemoryMcpModule } from '@cairn/memory';
import { MemoryHygieneMcpModule } from '@cairn/memory-hygiene';
import { MemorySharingMcpModule } from '@cairn/memory-sharing';
import { MemoryReviewMcpModule } from '@cairn/memory-review';
import { OAuthTokensModule } from '@cairn/oauth';
import { ProjectCardMcpModule } from '@cairn/project-card';
import { SecretsMcpModule } from '@cairn/secrets';
import { SummariesMcpModule } from '@cairn/summaries';
import { WorkingMemoryMcpModule } from '@cairn/working-memory';

/** The MCP Streamable HTTP gateway: wiring only; tools live in the capability libraries. */
@Module({})
export class McpGatewayModule {
  static register(config: CairnConfig): DynamicModule {
    return {
      module: McpGatewayModule,
      imports: [
        InfrastructureModule.forRoot(config, { serving: true }),
        McpModule,
        McpHttpModule,
        OAuthTokensModule,
        MemoryMcpModule,
        MemoryHygieneMcpModule,
        MemorySharingMcpModule,
        MemoryReviewMcpModule,
        StatusMcpModule,
        WorkingMemoryMcpModule,
        KnowledgeMcpModule,
        CodeIndexMcpModule,
        ContextCheckMcpModule,
        SummariesMcpModule,
        ProjectCardMcpModule,
        ExtractionMcpModule,
        SecretsMcpModule,
        CoordinationMcpModule,
      ],
    };
  }
}
