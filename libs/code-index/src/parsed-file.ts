import { type CodeSymbolKind } from './contract/code-index.types';
import { type CodeLanguage } from './languages';

export interface CodeSymbol {
  name: string;
  kind: CodeSymbolKind;
  /** 1-based and inclusive, from the declaration's first keyword (decorators and annotations left out). */
  startLine: number;
  endLine: number;
  /** The declaration up to its body, whitespace collapsed, at most SIGNATURE_MAX_CHARS. */
  signature: string;
  /** The enclosing class, interface, trait, impl'd type or namespace; null at the top level. */
  container: string | null;
  /**
   * Visible outside its file or package by the language's own rule: TS/JS `export`, a capitalised Go
   * name, a Python name without a leading underscore, Rust `pub`, Java `public`. A member counts
   * only when its container does too.
   */
  exported: boolean;
}

/** A name the file uses: a call, a `new`, a type, a base class or a JSX element. */
export interface CodeReference {
  name: string;
  line: number;
}

export interface ParsedFile {
  language: CodeLanguage;
  symbols: CodeSymbol[];
  references: CodeReference[];
  /** Set when the file could not be read at all (too large, timed out, grammar failed to load). */
  error?: string;
}

/** Larger files (generated bundles, data) are refused rather than parsed: they hold no symbols worth a search. */
export const MAX_PARSE_BYTES = 1024 * 1024;
/** One file's parse and query together; a pathological input fails instead of holding the event loop. */
export const PARSE_TIMEOUT_MS = 5_000;
export const SIGNATURE_MAX_CHARS = 300;
/** Minified or generated files reference thousands of names; past this many they add only noise. */
export const MAX_REFERENCES = 5_000;
