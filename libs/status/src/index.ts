export { SearchStatusReader } from './search-status';
export { StatusMcpModule } from './status.module';
