// The capability module and its adapters' modules.
export { MemoryModule } from './memory.module';
export { MemoryHttpModule } from './http/memory-http.module';
export { MemoryMcpModule } from './mcp/memory-mcp.module';

// Services other libraries use.
export { AccessRecorder } from './access-recorder.service';
export { MemoryReader } from './memory-reader.service';
export { MemoryRecall, type RecallHit, type RecallInput } from './memory-recall.service';
export { MemoryLinks } from './memory-relations.service';
export { MemoryWriter, type StoreMemoryInput, type WriteResult } from './memory-writer.service';
export { MemoryRecords } from './memory-records.service';
export { MemorySettings } from './memory-settings.service';
export { IDEMPOTENCY_KEY_HOURS, IdempotencyKeysRepository } from './idempotency-keys.repository';

// The contract: types, schemas, DTOs and views shared with other libraries.
export {
  type ContradictionWarning,
  type Memory,
  MEMORY_CATEGORIES,
  MEMORY_SCOPES,
  type MemoryCategory,
  type MemoryScopeLevel,
  type MemoryFields,
  type MemoryRelation,
  RELATION_TYPES,
  type RelationType,
} from './contract/memory.types';
export { type ListFilter, type MemoryFilter, type MemoryScope } from './contract/memory-filter';
export { type MemoryViewer, SYSTEM_VIEWER, type Viewer } from './contract/memory-viewer';
export { AGENT_DEFAULT_SCOPES, type AgentDefaultScope } from './contract/memory-settings';
export {
  categorySchema,
  confidenceSchema,
  importanceSchema,
  keywordsSchema,
  memoryContentSchema,
  occurredAtSchema,
  tagSchema,
  tagsSchema,
} from './contract/memory-fields.schema';
export {
  idempotencyKeySchema,
  MemoryDto,
  MemoryParamsDto,
  memorySchema,
  type MemoryView,
  ProjectParamDto,
  toMemoryView,
} from './contract/memory.dto';
export { MemoryPageDto, memoryPageSchema } from './contract/memory-query.dto';
export { cursorSchema, memoryIdSchema, pageLimitSchema } from './contract/memory-tool.schemas';

// Memory's rules, applied the same way by the libraries that extend it (memory-hygiene, memory-sync).
export {
  assertMayModify,
  assertMayWriteScope,
  assertMayWriteTenantWide,
  isAuthor,
  orNotFound,
  projectScope,
  viewerOf,
} from './memory-access';
export { authoredBySql, isAuthoredBy, type OwnerIdentity } from './memory-ownership';
export { memoryContentHash, memoryEmbeddingText } from './memory-content';
export { detectContradiction } from './contradiction-detector';

// Statement pieces for the repositories of memory-hygiene and memory-sync, which query the
// memories table themselves: one definition of a memory row and of the filters.
export { memoryFilterSql, memoryScopeSql, privacySql } from './memory-filter.sql';
// Sharing (memory-sharing's listings; the visibility filter ORs it in): one definition of "shared with".
export {
  GRANT_NOTICE_INSERT,
  identitySql,
  memorySharedWithSql,
  ruleNoticesSql,
  type SharePermission,
  shareGrantsSql,
  type ShareViewer,
} from './memory-shares.sql';
export { MEMORY_COLUMNS, MEMORY_FROM, type MemoryRow, toMemory } from './memory-row.sql';

// MCP text renderers that memory-hygiene's tools share, so a memory reads the same in every tool.
export { memoryLines, nextPageLine } from './mcp/memory-text';

// For the benchmarks (bench/), which load and rank memories directly.
export { memoryCorpus } from './memory-corpus.sql';
export { MemoriesRepository, type NewMemory } from './memories.repository';
