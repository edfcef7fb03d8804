import { Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { McpHttpRoutes } from './http/mcp-http.routes';
import { McpRateLimits } from './http/rate-limits';
import { McpRequestGate } from './http/request-gate';
import { McpCatalog } from './protocol/mcp-catalog';
import { McpServerFactory } from './protocol/mcp-server.factory';
import { ToolExecutor } from './tools/tool-executor';
import { ToolMetrics } from './tools/tool-metrics';
import { ToolRegistry } from './tools/tool-registry';

/**
 * The MCP Streamable HTTP endpoint. Tools, resources and prompts are contributed by the
 * capability libraries (`@McpTool`, `@McpResource`, `@McpPrompt` providers) and discovered
 * at boot; this module only authenticates, limits, dispatches and records.
 */
@Module({
  imports: [DiscoveryModule],
  providers: [
    ToolRegistry,
    ToolMetrics,
    ToolExecutor,
    McpCatalog,
    McpServerFactory,
    McpRateLimits,
    McpRequestGate,
    McpHttpRoutes,
  ],
  exports: [ToolRegistry],
})
export class McpModule {}
