import { readFile } from 'node:fs/promises';
import { Language, Parser, Query } from 'web-tree-sitter';
import { grammarWasmPath, tagQuerySource } from './grammars';
import { type CodeLanguage } from './languages';

/**
 * web-tree-sitter's wasm runtime and each grammar, loaded once per process on first use: the api
 * process may never see a file of some language, and each grammar costs a few MB of wasm memory.
 * The promises are cached so that concurrent first callers wait on the same load; a failed load
 * is forgotten, so a later call tries again rather than failing forever.
 */

export interface LoadedGrammar {
  readonly language: CodeLanguage;
  /** Reused across files: parsing is synchronous, so no two parses ever share it at once. */
  readonly parser: Parser;
  readonly query: Query;
}

let runtime: Promise<void> | null = null;
const grammars = new Map<CodeLanguage, Promise<LoadedGrammar>>();

function initRuntime(): Promise<void> {
  runtime ??= Parser.init({
    // The package exports its wasm file by name; resolving it works from dist/ and under jest alike.
    locateFile: () => require.resolve('web-tree-sitter/web-tree-sitter.wasm'),
  }).catch((error: unknown) => {
    runtime = null;
    throw error;
  });
  return runtime;
}

async function load(language: CodeLanguage): Promise<LoadedGrammar> {
  await initRuntime();
  // Bytes, not a path: given a path, Language.load reads it through a dynamic import() of
  // fs/promises, which jest's module sandbox refuses.
  const wasm = await readFile(grammarWasmPath(language));
  const grammar = await Language.load(new Uint8Array(wasm.buffer, wasm.byteOffset, wasm.byteLength));
  const query = new Query(grammar, tagQuerySource(language));
  // tags.scm captures doc comments next to definitions; the index does not keep them.
  if (query.captureNames.includes('doc')) query.disableCapture('doc');
  const parser = new Parser();
  parser.setLanguage(grammar);
  return { language, parser, query };
}

/** The grammar, parser and tag query of a language, loading them on the first call. */
export function loadGrammar(language: CodeLanguage): Promise<LoadedGrammar> {
  let loading = grammars.get(language);
  if (!loading) {
    loading = load(language);
    grammars.set(language, loading);
    loading.catch(() => grammars.delete(language));
  }
  return loading;
}
