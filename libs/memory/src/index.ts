export { AccessRecorder } from './access-recorder';
export { detectContradiction } from './contradiction-detector';
export { MemoryHttpModule } from './http/memory-http.module';
export { memoryContentSchema } from './http/memory-fields.schema';
export { toMemoryView } from './http/memory.dto';
export { isAuthor, projectScope, visibleIn } from './memory-access';
export { memoryCorpus } from './memory-corpus';
export { type MemoryFilter, memoryFilterSql, type MemoryScope } from './memory-filter';
export { MemoryReader } from './memory-reader.service';
export { MemoryRecall, type RecallHit, type RecallInput } from './memory-recall.service';
export { MemoryLinks } from './memory-relations.service';
export { type MemoryRelation, MemoryRelationsRepository } from './memory-relations.repository';
export { memoryContentHash, memoryEmbeddingText } from './memory-row';
export { MemoryVersionsRepository } from './memory-versions.repository';
export { MemoryWriter, type StoreMemoryInput, type WriteResult } from './memory-writer.service';
export {
  type ContradictionWarning,
  type Memory,
  MEMORY_CATEGORIES,
  type MemoryCategory,
  type MemoryFields,
  RELATION_TYPES,
  type RelationType,
} from './memory.types';
export { MemoriesRepository, type NewMemory } from './memories.repository';
export { MemoryModule } from './memory.module';
export { MemoryHygiene } from './hygiene/memory-hygiene.service';
export { MemoryMerger } from './hygiene/memory-merge.service';
export { decodeCursor, encodeCursor } from './sync/change-cursor';
export { EXPORT_FORMAT, EXPORT_VERSION } from './sync/export-format';
export { MemoryChanges } from './sync/memory-changes.service';
export { MemoryExporter } from './sync/memory-export.service';
export { MemoryImporter } from './sync/memory-import.service';
export { MemoryMcpModule } from './mcp/memory-mcp.module';
