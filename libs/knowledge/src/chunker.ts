/** One piece of a document; `text` is exactly `source.slice(start, end)`. */
export interface Chunk {
  readonly text: string;
  readonly start: number;
  readonly end: number;
}

export interface ChunkOptions {
  /** Longest chunk, in UTF-16 code units; chunks end at the best boundary before it. */
  readonly target: number;
  /** How much of a chunk's end the next chunk repeats, so no passage is only ever seen cut in half. */
  readonly overlap: number;
}

export const DEFAULT_CHUNK_OPTIONS: ChunkOptions = { target: 1_200, overlap: 200 };

interface BreakKind {
  readonly pattern: RegExp;
  /** Where, relative to the match, the text may be cut. */
  readonly at: (match: RegExpExecArray) => number;
}

// A blank line.
const PARAGRAPH: BreakKind = { pattern: /\n[ \t]*\n/g, at: (m) => m.index };
// After sentence punctuation (and closing quotes or brackets) followed by space, after a CJK
// full stop, or before a single line break (lists and code read line by line).
const SENTENCE: BreakKind = {
  pattern: /[.!?\u2026][)"'\]\u00BB\u201D\u2019]*(?=\s)|[\u3002\uFF01\uFF1F]|\n/g,
  at: (m) => (m[0] === '\n' ? m.index : m.index + m[0].length),
};
// After the last character of a word.
const WORD: BreakKind = { pattern: /\S(?=\s)/g, at: (m) => m.index + 1 };

/**
 * Splits text into chunks of at most `target` characters, each ending at the last paragraph
 * break that keeps it at least half full, else the last sentence end, else the last word end,
 * else a hard cut that never separates a surrogate pair or a combining mark from its base.
 * The next chunk starts about `overlap` characters earlier, at a sentence or word start when
 * there is one. Whitespace-only input gives no chunks. Pure and deterministic.
 */
export function chunkText(text: string, options: ChunkOptions = DEFAULT_CHUNK_OPTIONS): Chunk[] {
  const { target, overlap } = options;
  if (!Number.isInteger(target) || !Number.isInteger(overlap) || target < 8 || overlap < 0 || overlap * 2 >= target) {
    throw new RangeError('chunk options need integers with target >= 8 and 0 <= overlap < target / 2');
  }
  const chunks: Chunk[] = [];
  let start = skipWhitespace(text, 0);
  while (start < text.length) {
    const end =
      text.length - start <= target ? text.length : breakBefore(text, start + Math.ceil(target / 2), start + target);
    const trimmedEnd = trimEnd(text, start, end);
    if (trimmedEnd > start) chunks.push({ text: text.slice(start, trimmedEnd), start, end: trimmedEnd });
    if (end >= text.length) break;
    // Each chunk is at least target/2 > overlap long, so the next start always moves forward.
    start = skipWhitespace(text, Math.max(start + 1, overlapStart(text, end, overlap)));
  }
  return chunks;
}

/** Best cut in (lo, hi]: paragraph, then sentence, then word, then a character-safe hard cut. */
function breakBefore(text: string, lo: number, hi: number): number {
  for (const kind of [PARAGRAPH, SENTENCE, WORD]) {
    const found = breaks(text, lo, hi, kind);
    const last = found[found.length - 1];
    if (last !== undefined) return last;
  }
  let cut = hi;
  while (cut > lo && splitsCharacter(text, cut)) cut -= 1;
  if (cut > lo) return cut;
  // Pathological run of combining marks: keep at least the surrogate pairs whole.
  return isSurrogatePairAt(text, hi - 1) ? hi - 1 : hi;
}

/** Where the chunk after one ending at `end` begins: a sentence start, else a word start. */
function overlapStart(text: string, end: number, overlap: number): number {
  if (overlap === 0) return end;
  const from = end - overlap;
  // A sentence start only counts if it still leaves a useful overlap (a quarter of it).
  for (const cut of breaks(text, from - 1, end - 1, SENTENCE)) {
    const begin = skipWhitespace(text, cut);
    if (begin >= from && begin <= end - overlap / 4) return begin;
  }
  for (const cut of breaks(text, from - 1, end - 1, WORD)) {
    const begin = skipWhitespace(text, cut);
    if (begin >= from && begin < end) return begin;
  }
  let begin = from;
  while (begin < end && splitsCharacter(text, begin)) begin += 1;
  return begin;
}

/** Cut positions of one kind in (lo, hi], ascending. */
function breaks(text: string, lo: number, hi: number, kind: BreakKind): number[] {
  const base = Math.max(0, lo);
  // One character past hi so a lookahead can see what follows a cut at hi.
  const window = text.slice(base, Math.min(text.length, hi + 1));
  const pattern = new RegExp(kind.pattern.source, kind.pattern.flags);
  const found: number[] = [];
  for (let match = pattern.exec(window); match !== null; match = pattern.exec(window)) {
    const cut = base + kind.at(match);
    if (cut > lo && cut <= hi) found.push(cut);
  }
  return found;
}

/** True when cutting before index `at` would tear a character apart. */
function splitsCharacter(text: string, at: number): boolean {
  if (at <= 0 || at >= text.length) return false;
  if (isSurrogatePairAt(text, at - 1)) return true;
  const next = text[at] ?? '';
  // Combining marks, a zero-width joiner and variation selectors belong to the character before them.
  return /\p{M}/u.test(next) || next === '\u200D' || next === '\uFE0F' || text[at - 1] === '\u200D';
}

function isSurrogatePairAt(text: string, index: number): boolean {
  const high = text.charCodeAt(index);
  const low = text.charCodeAt(index + 1);
  return high >= 0xd800 && high <= 0xdbff && low >= 0xdc00 && low <= 0xdfff;
}

function skipWhitespace(text: string, from: number): number {
  let index = from;
  while (index < text.length && isWhitespace(text[index])) index += 1;
  return index;
}

function trimEnd(text: string, start: number, end: number): number {
  let index = end;
  while (index > start && isWhitespace(text[index - 1])) index -= 1;
  return index;
}

function isWhitespace(char: string | undefined): boolean {
  return char !== undefined && /\s/.test(char);
}
