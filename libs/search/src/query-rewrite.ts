import { MAX_QUERY_PARTS } from './query-parts';

/**
 * The model-based rewrite of a recall question into sub-queries (QUERY_REWRITE=on): the fixed
 * prompt, and the defensive reading of the answer. The answer comes from a model, so nothing
 * in it is trusted: anything that is not a short list of short, distinct strings is dropped,
 * and the model-free parts (queryParts) stand instead.
 */

/** Instructions only; the question goes in the user message. */
export const REWRITE_SYSTEM =
  'You prepare searches over a store of notes. Given a question, list the independent ' +
  'sub-questions that must each be looked up to answer it: one per person, thing, event or time ' +
  `it asks about, at most ${MAX_QUERY_PARTS}, each a short self-contained search phrase. ` +
  'A question about one thing needs none. Answer only with JSON: {"queries": ["...", "..."]}.';

/** Enough for MAX_QUERY_PARTS short phrases; a longer answer is cut, and its last item lost. */
export const REWRITE_MAX_TOKENS = 200;

/** A part shorter than this names nothing; longer than the other is a paragraph, not a search. */
const MIN_PART_CHARS = 3;
const MAX_PART_CHARS = 300;
/** Bounds the work on a runaway answer (a provider ignoring max tokens). */
const MAX_ANSWER_CHARS = 8_000;
/** Keys a model may put its list under, besides the one asked for. */
const LIST_KEYS = ['queries', 'sub_questions', 'subQuestions', 'questions', 'parts', 'subqueries'];

/** Lower case, single spaces, no closing punctuation: how two phrasings of one question compare. */
function comparable(text: string): string {
  return text
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .replace(/[\s?.!]+$/g, '')
    .trim();
}

/**
 * The sub-queries in a model's answer to REWRITE_SYSTEM about `question`: a JSON object holding
 * a list of strings, a bare JSON array, or JSON lines, with or without a code fence around them
 * or prose before them. Each is trimmed; those not MIN–MAX_PART_CHARS long, repeated, or the
 * question itself again are dropped; at most MAX_QUERY_PARTS are kept, in the model's order.
 * Empty when nothing usable is left (including a malformed answer): never throws.
 */
export function parseRewrite(answer: string, question: string): string[] {
  const items = listIn(answer.slice(0, MAX_ANSWER_CHARS).replace(/```[a-z]*\s*/gi, ''));
  const whole = comparable(question);
  const seen = new Set<string>();
  const parts: string[] = [];
  for (const item of items) {
    const text = (typeof item === 'string' ? item : stringField(item))?.replace(/\s+/g, ' ').trim();
    if (!text || text.length < MIN_PART_CHARS || text.length > MAX_PART_CHARS) continue;
    const key = comparable(text);
    if (key === whole || seen.has(key)) continue;
    seen.add(key);
    parts.push(text);
    if (parts.length === MAX_QUERY_PARTS) break;
  }
  return parts;
}

/** The list the answer holds, however the model wrapped it; empty when there is none. */
function listIn(text: string): unknown[] {
  const whole = tryParse(text.trim());
  if (whole !== undefined) return listOf(whole);
  // Prose around the JSON: the first object or array that parses.
  for (const open of ['{', '[']) {
    const start = text.indexOf(open);
    const end = text.lastIndexOf(open === '{' ? '}' : ']');
    if (start === -1 || end <= start) continue;
    const inner = tryParse(text.slice(start, end + 1));
    if (inner !== undefined) return listOf(inner);
  }
  // JSON lines: each line a string or an object naming one; other lines are ignored.
  return text
    .split('\n')
    .map((line) => tryParse(line.trim().replace(/,$/, '')))
    .filter((value) => typeof value === 'string' || (typeof value === 'object' && value !== null));
}

function listOf(value: unknown): unknown[] {
  if (Array.isArray(value)) return value;
  if (typeof value === 'string') return [value];
  if (typeof value !== 'object' || value === null) return [];
  const record = value as Record<string, unknown>;
  const key = LIST_KEYS.find((name) => Array.isArray(record[name]));
  if (key) return record[key] as unknown[];
  // One object per line was read as one: a single sub-question.
  return stringField(record) === undefined ? [] : [record];
}

/** `{"query": "…"}` and the like: a model listing objects instead of strings. */
function stringField(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const record = value as Record<string, unknown>;
  for (const name of ['query', 'question', 'sub_question', 'text']) {
    if (typeof record[name] === 'string') return record[name];
  }
  return undefined;
}

function tryParse(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** What became of a recall's rewrite: the metric's label and the note's subject. */
export type RewriteOutcome = 'ok' | 'timeout' | 'error' | 'empty';

/** Every note about the rewrite begins so (SearchReport notes are free text): the eval counts them. */
export const REWRITE_NOTE_PREFIX = 'query rewrite: ';

/** The report's note for an outcome; `fallback` says what was ranked instead. */
export function rewriteNote(
  outcome: RewriteOutcome,
  detail: { model: string; parts: number; timeoutMs: number },
): string {
  const fallback = detail.parts > 0 ? `ranked its ${detail.parts} parts found without the model` : 'ranked it whole';
  const text: Record<RewriteOutcome, string> = {
    ok: `ranked ${detail.parts} sub-queries from ${detail.model} beside the question`,
    timeout: `${detail.model} did not answer within ${detail.timeoutMs} ms; ${fallback}`,
    error: `${detail.model} is unavailable; ${fallback}`,
    empty: `${detail.model} gave no usable sub-queries; ${fallback}`,
  };
  return `${REWRITE_NOTE_PREFIX}${text[outcome]}`;
}

/** The rewrite's outcome as a recall's notes report it; undefined when there was no rewrite. */
export function rewriteOutcomeOf(notes: readonly string[]): RewriteOutcome | undefined {
  const note = notes.find((text) => text.startsWith(REWRITE_NOTE_PREFIX))?.slice(REWRITE_NOTE_PREFIX.length);
  if (note === undefined) return undefined;
  if (note.startsWith('ranked ')) return 'ok';
  if (note.includes(' did not answer within ')) return 'timeout';
  if (note.includes(' is unavailable; ')) return 'error';
  return 'empty';
}
