export { AccessRecorder } from './access-recorder.service';
export { detectContradiction } from './contradiction-detector';
export { MemoryHttpModule } from './http/memory-http.module';
export { memoryContentSchema } from './contract/memory-fields.schema';
export { toMemoryView } from './contract/memory.dto';
export { isAuthor, projectScope, visibleIn } from './memory-access';
export { memoryCorpus } from './memory-corpus.sql';
export { type ListFilter, type MemoryFilter, type MemoryScope } from './contract/memory-filter';
export { memoryFilterSql } from './memory-filter.sql';
export { MemoryReader } from './memory-reader.service';
export { MemoryRecall, type RecallHit, type RecallInput } from './memory-recall.service';
export { MemoryLinks } from './memory-relations.service';
export { MemoryRelationsRepository } from './memory-relations.repository';
export { memoryContentHash, memoryEmbeddingText } from './memory-content';
export { MemoryVersionsRepository } from './memory-versions.repository';
export { MemoryWriter, type StoreMemoryInput, type WriteResult } from './memory-writer.service';
export {
  type ContradictionWarning,
  type Memory,
  MEMORY_CATEGORIES,
  type MemoryCategory,
  type MemoryFields,
  type MemoryRelation,
  RELATION_TYPES,
  type RelationType,
} from './contract/memory.types';
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
