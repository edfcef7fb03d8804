// The capability module and its adapters' modules.
export { MemoryModule } from './memory.module';
export { MemoryHttpModule } from './http/memory-http.module';
export { MemoryMcpModule } from './mcp/memory-mcp.module';

// Services other libraries use.
export { AccessRecorder } from './access-recorder.service';
export { MemoryDigest } from './memory-digest.service';
export { MemoryReader } from './memory-reader.service';
export { MemoryRecall, type RecallHit, type RecallInput } from './memory-recall.service';
export { MemoryLinks } from './memory-relations.service';
export { MemoryWriter, type StoreMemoryInput, type WriteResult } from './memory-writer.service';
export { MemoryMaintenance } from './memory-maintenance.service';
export { MemoryRecords } from './memory-records.service';
export { MemoryReviews } from './memory-reviews.service';
export { MemoryShares } from './memory-shares.service';
export { MemoryTransfer } from './memory-transfer.service';
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
  type RecentMemory,
  RELATION_TYPES,
  type RelationType,
} from './contract/memory.types';
export { type ListFilter, type MemoryFilter, type MemoryScope } from './contract/memory-filter';
export {
  type DecayOptions,
  type DuplicateCandidate,
  type DuplicateOptions,
  type PruneOptions,
  type WalkPosition,
} from './contract/memory-maintenance.types';
export { type MemoryViewer, SYSTEM_VIEWER, type Viewer } from './contract/memory-viewer';
export {
  type Grantee,
  type GrantPosition,
  type MemoryShare,
  type Party,
  type SharedMemory,
  type ShareGrant,
  type SharePermission,
  type ShareRule,
} from './contract/memory-sharing.types';
export {
  type ChangedMemory,
  type ExistingMemory,
  type FeedPosition,
  type RestoredMemory,
  type RestoredRelation,
} from './contract/memory-sync.types';
export {
  type NewPromotion,
  type QueuedReview,
  type Resolution,
  RESOLUTIONS,
  type Review,
  type ReviewActor,
  type ReviewDecision,
  type ReviewedMemory,
  type ReviewKind,
  REVIEW_KINDS,
  type ReviewOutcome,
  type ReviewStatus,
  REVIEW_STATUSES,
} from './contract/memory-review.types';
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
export { isAuthoredBy, type OwnerIdentity } from './memory-ownership';
export { memoryContentHash, memoryEmbeddingText } from './memory-content';
export { detectContradiction } from './contradiction-detector';

// MCP text renderers that memory-hygiene's tools share, so a memory reads the same in every tool.
export { memoryLines, nextPageLine } from './mcp/memory-text';

// For the benchmarks (bench/), which load and rank memories directly.
export { MemoriesRepository, type NewMemory } from './memories.repository';
