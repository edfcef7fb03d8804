export { type Chunk, type ChunkOptions, chunkText, DEFAULT_CHUNK_OPTIONS } from './chunker';
export { contentHash, normaliseDocumentText } from './document-text';
export { KnowledgeHttpModule } from './http/knowledge-http.module';
export { KnowledgeMcpModule } from './mcp/knowledge-mcp.module';
export { KnowledgeWorkerModule } from './jobs/knowledge-worker.module';
export { KbFetchJobHandler } from './jobs/kb-fetch.job-handler';
export { KB_FETCH_TRUSTED_ADDRESSES, KbFetchRunner } from './kb-fetch-runner.service';
export { KbFetchService } from './kb-fetch.service';
export { KbSearchService } from './kb-search.service';
export {
  type DocumentPage,
  type FetchedDocument,
  type FetchOutcome,
  type FetchRequest,
  type IndexRequest,
  type IndexResult,
  KB_SEARCH_MAX_LIMIT,
  type KbDocument,
  type KbGlobalSearchRequest,
  type KbSearchHit,
  type KbSearchReport,
  type KbSearchRequest,
  type KbSearchResult,
  type PurgeResult,
  RETENTION_TIERS,
  type RetentionTier,
  SOURCE_TYPES,
  type SourceType,
} from './contract/kb.types';
export { KnowledgeModule } from './knowledge.module';
export { KnowledgeService } from './knowledge.service';
