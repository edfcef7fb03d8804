import { Module } from '@nestjs/common';
import { McpModule } from '../mcp.module';
import { McpExchanges } from './mcp-exchanges.service';
import { McpHttpRoutes } from './mcp-http-routes.service';
import { McpRequestGate } from './mcp-request-gate.service';

/**
 * The MCP Streamable HTTP endpoint (`/mcp`) and its protected resource metadata: every request
 * is authenticated, limited and checked here before the MCP server sees it. Gateway app only.
 */
@Module({ imports: [McpModule], providers: [McpRequestGate, McpExchanges, McpHttpRoutes] })
export class McpHttpModule {}
