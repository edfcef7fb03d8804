// The capability module and its adapters' modules.
export { MemoryHygieneModule } from './memory-hygiene.module';
export { MemoryHygieneHttpModule } from './http/memory-hygiene-http.module';
export { MemoryHygieneMcpModule } from './mcp/memory-hygiene-mcp.module';

// Services other libraries use.
export { MemoryHygiene, type ScopedMaintenance } from './memory-hygiene.service';
export { type MergeInput, MemoryMerger, type MergeResult } from './memory-merge.service';

// The contract.
export { type DuplicatePair } from './contract/memory-hygiene.types';
