export { CodeParser } from './code-parser.service';
export { CODE_LANGUAGES, type CodeLanguage, LANGUAGE_BY_EXTENSION, languageOf } from './languages';
export {
  CODE_SYMBOL_KINDS,
  type CodeReference,
  type CodeSymbol,
  type CodeSymbolKind,
  MAX_PARSE_BYTES,
  MAX_REFERENCES,
  PARSE_TIMEOUT_MS,
  type ParsedFile,
  SIGNATURE_MAX_CHARS,
} from './parsed-file';
