export { CodeIndexModule } from './code-index.module';
export { CodeIndexHttpModule } from './http/code-index-http.module';
export { CodeIndexMcpModule } from './mcp/code-index-mcp.module';
export { CodeQueries, type CodePassage, type CodeSearchResult, type SymbolLookup } from './code-queries.service';
export { CodeUpload } from './code-upload.service';
export { CodeRuns } from './code-runs.service';
export { CODE_SYMBOL_KINDS, type CodeSymbolKind, type SymbolHit } from './contract/code-index.types';
export { CodeParser } from './code-parser.service';
export { CODE_LANGUAGES, type CodeLanguage, LANGUAGE_BY_EXTENSION, languageOf } from './languages';
export {
  type CodeReference,
  type CodeSymbol,
  MAX_PARSE_BYTES,
  MAX_REFERENCES,
  PARSE_TIMEOUT_MS,
  type ParsedFile,
  SIGNATURE_MAX_CHARS,
} from './parsed-file';
