import 'reflect-metadata';
import { runMain } from '@cairn/server';
import { McpGatewayModule } from './mcp-gateway.module';

void runMain({
  app: 'mcp-gateway',
  module: (config) => McpGatewayModule.register(config),
  port: (config) => config.http.ports.mcpGateway,
});
