/** The languages the code index parses, one tree-sitter grammar each. */
export const CODE_LANGUAGES = ['typescript', 'tsx', 'javascript', 'python', 'go', 'rust', 'java'] as const;

export type CodeLanguage = (typeof CODE_LANGUAGES)[number];

/**
 * File extensions (lower case, with the dot) and the grammar that reads them. TSX has a grammar of
 * its own because `<T>value` casts and JSX cannot share one; JavaScript's grammar reads JSX itself.
 */
export const LANGUAGE_BY_EXTENSION: Readonly<Record<string, CodeLanguage>> = {
  '.ts': 'typescript',
  '.mts': 'typescript',
  '.cts': 'typescript',
  '.tsx': 'tsx',
  '.js': 'javascript',
  '.jsx': 'javascript',
  '.mjs': 'javascript',
  '.cjs': 'javascript',
  '.py': 'python',
  '.pyi': 'python',
  '.go': 'go',
  '.rs': 'rust',
  '.java': 'java',
};

/** The language of a file by its extension (either slash separates folders), or null when none is parsed. */
export function languageOf(path: string): CodeLanguage | null {
  const extension = /\.[^./\\]+$/.exec(path)?.[0].toLowerCase();
  return (extension && Object.hasOwn(LANGUAGE_BY_EXTENSION, extension) && LANGUAGE_BY_EXTENSION[extension]) || null;
}
