import { type DynamicModule, Module } from '@nestjs/common';
import { type CairnConfig, ConfigModule } from '@cairn/config';
import { DatabaseModule } from '@cairn/db';
import { ObservabilityModule } from '@cairn/observability';
import { RedisModule } from '@cairn/redis';
import { ServerModule } from '@cairn/server';

/** The MCP Streamable HTTP gateway. Health, readiness and metrics now; MCP tools arrive with their issue. */
@Module({})
export class McpGatewayModule {
  static register(config: CairnConfig): DynamicModule {
    return {
      module: McpGatewayModule,
      imports: [ConfigModule.forRoot(config), ObservabilityModule, ServerModule, DatabaseModule, RedisModule],
    };
  }
}
