import { Injectable } from '@nestjs/common';
import { languageOf } from './languages';
import { MAX_PARSE_BYTES, PARSE_TIMEOUT_MS, type ParsedFile } from './parsed-file';
import { extractTags, failedParse } from './tag-extractor';
import { loadGrammar } from './tree-sitter-runtime';

/**
 * Reads a source file into the symbols it declares and the names it references, with tree-sitter
 * (WebAssembly: no native build, the same everywhere Node runs). A plain class that Nest can also
 * provide: it holds no state of its own, the loaded grammars are shared by the whole process.
 */
@Injectable()
export class CodeParser {
  /**
   * Null when the file's language is not parsed. Never throws for the file's sake: a file too
   * large, a parse past PARSE_TIMEOUT_MS or a grammar that fails to load gives an empty result
   * with `error` set. Syntax errors are no failure: what parses around them is still returned.
   */
  async parse(path: string, content: string): Promise<ParsedFile | null> {
    const language = languageOf(path);
    if (!language) return null;
    const bytes = Buffer.byteLength(content, 'utf8');
    if (bytes > MAX_PARSE_BYTES) {
      return failedParse(language, `the file has ${bytes} bytes, more than the ${MAX_PARSE_BYTES} parsed`);
    }
    let grammar;
    try {
      grammar = await loadGrammar(language);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      return failedParse(language, `the ${language} grammar did not load: ${reason}`);
    }
    try {
      return extractTags(grammar, content, performance.now() + PARSE_TIMEOUT_MS);
    } catch (error) {
      return failedParse(language, `parsing failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
}
