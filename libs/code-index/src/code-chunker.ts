/**
 * Code in passages for keyword and semantic search: runs of whole lines up to a size, broken
 * preferably where a top-level symbol starts (so a function tends to be one passage) or at a
 * blank line, never inside a line. Line numbers are 1-based and inclusive, as editors show them.
 */
export interface CodeChunk {
  readonly ordinal: number;
  readonly startLine: number;
  readonly endLine: number;
  readonly content: string;
}

/** About a screenful: big enough for a function, small enough for an embedding model's window. */
export const CHUNK_TARGET_CHARS = 1_500;
const CHUNK_MAX_CHARS = 3_000;
/** A minified or generated line is cut rather than making one huge passage. */
const LINE_MAX_CHARS = 2_000;

export function chunkCode(content: string, symbolStarts: ReadonlySet<number> = new Set()): CodeChunk[] {
  const lines = content.split(/\r?\n/);
  if (lines.at(-1) === '') lines.pop();
  const chunks: CodeChunk[] = [];
  let start = 0;
  let size = 0;
  const flush = (end: number) => {
    const text = lines
      .slice(start, end)
      .map((line) => line.slice(0, LINE_MAX_CHARS))
      .join('\n');
    if (text.trim().length > 0) {
      chunks.push({ ordinal: chunks.length, startLine: start + 1, endLine: end, content: text });
    }
    start = end;
    size = 0;
  };
  for (let i = 0; i < lines.length; i++) {
    const length = Math.min(lines[i].length, LINE_MAX_CHARS) + 1;
    const atBoundary = symbolStarts.has(i + 1) || lines[i].trim() === '';
    if (size > 0 && ((size >= CHUNK_TARGET_CHARS && atBoundary) || size + length > CHUNK_MAX_CHARS)) flush(i);
    size += length;
  }
  if (start < lines.length) flush(lines.length);
  return chunks;
}

/**
 * The text full-text search reads for a passage: the passage, then its identifiers split into
 * words (`parseFile`, `parse_file` and `PARSE_FILE` also as `parse file`), so a query in words
 * finds code that spells them as one name. The stored passage itself stays as written.
 */
export function searchTextOf(content: string): string {
  const words = new Set<string>();
  for (const identifier of content.match(/[A-Za-z][A-Za-z0-9_]{3,}/g) ?? []) {
    const parts = splitIdentifier(identifier);
    if (parts.length > 1) words.add(parts.join(' '));
  }
  return words.size === 0 ? content : `${content}\n${[...words].join('\n')}`;
}

/** `parseHTTPRequest2` → parse, http, request, 2; `snake_case` → snake, case. */
export function splitIdentifier(identifier: string): string[] {
  return identifier
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .split(/[_\s]+/)
    .filter(Boolean)
    .map((part) => part.toLowerCase());
}

/** Lines in the content (a trailing newline does not start one more). */
export function lineCountOf(content: string): number {
  if (content.length === 0) return 0;
  const lines = content.split(/\r?\n/).length;
  return content.endsWith('\n') ? lines - 1 : lines;
}
