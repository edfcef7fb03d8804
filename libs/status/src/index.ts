export { SearchStatusReader } from './search-status.service';
export { StatusMcpModule } from './mcp/status-mcp.module';
export { StatusModule } from './status.module';
