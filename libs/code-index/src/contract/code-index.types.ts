/** Limits of the code index's REST contract (docs/code-index.md). */
export const CODE_FILE_MAX_CHARS = 524_288;
export const CODE_PATH_MAX_CHARS = 1_024;
export const FILES_PER_UPLOAD = 100;
export const PATHS_PER_REMOVAL = 1_000;
export const MANIFEST_PAGE_MAX = 5_000;

/** What the code index records of a declaration (a contract: code_search filters by it). */
export const CODE_SYMBOL_KINDS = [
  'function',
  'class',
  'method',
  'interface',
  'type',
  'enum',
  'constant',
  'module',
] as const;

export type CodeSymbolKind = (typeof CODE_SYMBOL_KINDS)[number];

export interface ManifestEntry {
  readonly path: string;
  readonly hash: string;
  readonly size: number;
}

export interface UploadedFile {
  readonly path: string;
  readonly hash: string;
  readonly language: string | null;
  readonly symbols: number;
  readonly chunks: number;
  readonly unchanged: boolean;
  readonly redacted: readonly { readonly type: string; readonly count: number }[];
}

/** A definition as code_symbol and code_search return it. */
export interface SymbolHit {
  readonly name: string;
  readonly kind: string;
  readonly path: string;
  readonly startLine: number;
  readonly endLine: number;
  readonly signature: string;
  readonly container: string | null;
  readonly exported: boolean;
  readonly hash: string;
  readonly commit: string | null;
  /** 1 for an exact name match, lower for fuzzy ones. */
  readonly score: number;
}
