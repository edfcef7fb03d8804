export { SearchStatusReader } from './search-status.service';
export { StatusReport } from './status-report.service';
export { StatusMcpModule } from './mcp/status-mcp.module';
export { StatusHttpModule } from './http/status-http.module';
export { StatusModule } from './status.module';
export {
  type McpEndpoint,
  mcpEndpointSchema,
  ServiceStatusDto,
  serviceStatusSchema,
  statusToolOutputSchema,
  type TokenStatus,
} from './contract/status.view';
