export { CodeIndexModule } from './code-index.module';
export { CodeIndexHttpModule } from './http/code-index-http.module';
export { CodeIndexMcpModule } from './mcp/code-index-mcp.module';
export { CodeQueries, type CodePassage, type CodeSearchResult, type SymbolLookup } from './code-queries.service';
export { CodeUpload } from './code-upload.service';
export { CodeRuns } from './code-runs.service';
export { type SymbolHit } from './contract/code-index.types';
