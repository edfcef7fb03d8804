import { Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { McpCatalog } from './mcp-catalog.registry';
import { McpServerFactory } from './mcp-server.factory';
import { ToolExecutor } from './tool-executor.service';
import { ToolMetrics } from './tool-metrics.service';
import { ToolRegistry } from './tool.registry';

/**
 * The MCP server: tools, resources and prompts are contributed by the capability libraries
 * (`@McpTool`, `@McpResource`, `@McpPrompt` providers) and discovered at boot; this module
 * dispatches and records. The Streamable HTTP endpoint that serves it is McpHttpModule.
 */
@Module({
  imports: [DiscoveryModule],
  providers: [ToolRegistry, ToolMetrics, ToolExecutor, McpCatalog, McpServerFactory],
  exports: [ToolRegistry, McpServerFactory],
})
export class McpModule {}
