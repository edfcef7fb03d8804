// The capability module and its adapters' modules.
export { MemorySharingModule } from './memory-sharing.module';
export { MemorySharingHttpModule } from './http/memory-sharing-http.module';
export { MemorySharingMcpModule } from './mcp/memory-sharing-mcp.module';

// Services other libraries use.
export { MemorySharing } from './memory-sharing.service';
export { SharingListings } from './sharing-listings.service';

// The contract.
export {
  type Grantee,
  type MemoryShare,
  type Page,
  type Party,
  type SharedMemory,
  type ShareGrant,
  type SharePermission,
  type ShareRule,
} from './contract/sharing.types';
export { grantViewSchema, SHARED_CONTENT_NOTE, sharedMemoryViewSchema } from './contract/sharing.dto';
