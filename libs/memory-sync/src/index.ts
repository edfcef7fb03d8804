// The capability module and its HTTP modules (two, so the api app keeps the routes' order).
export { MemorySyncModule } from './memory-sync.module';
export { MemoryChangesHttpModule } from './http/memory-changes-http.module';
export { MemoryTransferHttpModule } from './http/memory-transfer-http.module';

// Services other libraries use.
export { type ChangeItem, type ChangePage, MemoryChanges } from './memory-changes.service';
export { type MemoryExport, MemoryExporter } from './memory-export.service';
export { type ImportResult, MemoryImporter } from './memory-import.service';

// The contract: the change cursor and the JSON Lines export format.
export { type ChangeCursor, decodeCursor, encodeCursor } from './contract/change-cursor';
export {
  EXPORT_FORMAT,
  EXPORT_VERSION,
  type ExportedMemory,
  exportedMemorySchema,
  type ExportedRelation,
  NDJSON,
} from './contract/export-format';
