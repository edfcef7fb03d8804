import { type RankedId } from './contract/search.types';

/**
 * Query decomposition without a model: the parts of a question that asks about several things
 * at once ("how many days between the Holi festival and the Sunday mass", "the total cost of
 * the car cover and the detailing spray", "workshops, lectures, and conferences in April").
 * Each part is ranked as a query of its own and its best candidates are merged into the whole
 * question's ranking (TextRanking), so one half of the question cannot fill every slot.
 *
 * Only coordination is split: "between A and B", and lists joined by commas, "and", "or",
 * "as well as", "versus". Each part keeps the words the question shares with every part when
 * they come after the list ("… and conferences in April": "in April" is added to "workshops"),
 * so a part is a searchable phrase, not a lone noun. A part without two content words, or a
 * question longer than a few sentences (long questions already carry plenty of terms, and
 * their commas separate clauses, not items) gives no parts.
 */

/** At most this many parts (beyond it, a list is better served by the whole question). */
export const MAX_QUERY_PARTS = 4;
/** Questions longer than this many words are not split. */
const MAX_WORDS = 40;

const BETWEEN = /\bbetween\s+(.+?)\s+and\s+(.+?)\s*[?!.]?$/i;
/** A conjunction that makes a list ("A and B", "A, B, or C"); commas alone may be an apposition. */
const CONJUNCTION = /\s(?:and|or|as well as|versus|vs\.?)\s/i;
/** A piece that opens a clause of its own ("…, and I was wondering", "…, but what…"): not a list item. */
const CLAUSE_START =
  /^(?:i|i'm|i've|you|we|he|she|they|it|there|but|so|what|which|who|when|where|why|how|can|could|would|do|did|is|are|was)\b/i;
/** Items this short borrow the words after the list ("workshops, lectures, and conferences in April"). */
const SHORT_ITEM_WORDS = 4;
/** Conjunctions and list separators; "and"/"or" after a comma count once. */
const COORDINATION = /\s*,\s*(?:and|or)\s+|\s*,\s+|\s+(?:and|or|as well as|versus|vs\.?)\s+/i;
/** Words that make no part on their own (so "and then", "or not" do not split). */
const FUNCTION_WORDS = new Set(
  (
    'a an the i me my we our you your he she it they them their this that these those is are was were be been ' +
    'do did does have has had can could would should will to of in on at for from by with about as into than then ' +
    'not no so what which who whom whose when where why how many much long ago there here it its also both either ' +
    'neither any all some each every one two other more most less least total number'
  ).split(' '),
);

function contentWords(text: string): number {
  return (text.toLowerCase().match(/[\p{L}\p{N}][\p{L}\p{N}'’-]*/gu) ?? []).filter((word) => !FUNCTION_WORDS.has(word))
    .length;
}

function clean(part: string): string {
  return part.replace(/^[\s,;:]+|[\s,;:?.!]+$/g, '').trim();
}

/** The question's parts when it coordinates two to MAX_QUERY_PARTS things; otherwise none. */
export function queryParts(question: string): string[] {
  const text = question.replace(/\s+/g, ' ').trim();
  if (text === '' || text.split(' ').length > MAX_WORDS) return [];
  const between = BETWEEN.exec(text);
  if (between) return keep([between[1] ?? '', between[2] ?? '']);
  // The sentence that holds the list: the last question, or the whole text.
  const sentences = text.split(/(?<=[.?!])\s+/);
  const sentence = sentences[sentences.length - 1] ?? text;
  if (!CONJUNCTION.test(` ${sentence} `)) return [];
  const pieces = sentence.split(COORDINATION).map(clean);
  if (pieces.length < 2 || pieces.slice(1).some((piece) => CLAUSE_START.test(piece))) return [];
  // Words after the last item that every item shares: when the items are short, the tail of
  // the last one past its noun ("conferences in April" → "in April") joins the earlier ones.
  const last = pieces[pieces.length - 1] ?? '';
  const tail = /\s((?:in|on|at|during|before|after|for|from|since|last|this|next)\s.+)$/i.exec(last)?.[1] ?? '';
  const items = pieces.slice(1, -1).concat([last.slice(0, last.length - tail.length)]);
  const short = tail !== '' && items.every((item) => item.trim().split(' ').length <= SHORT_ITEM_WORDS);
  const parts = pieces.map((piece, index) => (index < pieces.length - 1 && short ? `${piece} ${tail}` : piece));
  return keep(parts);
}

function keep(parts: readonly string[]): string[] {
  const kept = parts.map(clean).filter((part) => contentWords(part) >= 1);
  // A part that is only a word or two beside a long head ("… pick up or return from a store")
  // still names something; but a split where no part names two things is not a list of things.
  if (kept.length < 2 || kept.length > MAX_QUERY_PARTS) return [];
  if (kept.every((part) => contentWords(part) < 2)) return [];
  return [...new Set(kept)];
}

/**
 * How much the parts' rankings count beside the whole question's (which counts 1). Measured on
 * LongMemEval (pooled, local model, docs/retrieval.md): 0.5 with the best part per result gave
 * hybrid recall@10 68.2 % against 68.0 % without parts (temporal questions 62.0 % against
 * 60.8 %); 1.0 lost (67.6 %), as did the parts' mean instead of their best (68.0 %, 67.8 %).
 */
export const QUERY_PARTS_WEIGHT = 0.5;

/**
 * The whole question's ranking merged with its parts': each list's scores relative to its
 * best, the parts' mean weighted QUERY_PARTS_WEIGHT, rescaled to the whole question's range so
 * later date adjustments see scores of the usual size. A result counts its best part, not the
 * parts' mean: a turn that answers one part well is what a question about two things needs. A result only a part found keeps that
 * part's explanation.
 */
export function mergeParts(whole: readonly RankedId[], parts: readonly (readonly RankedId[])[]): RankedId[] {
  if (parts.length === 0) return [...whole];
  const top = (list: readonly RankedId[]) => Math.max(list[0]?.score ?? 0, Number.EPSILON);
  const wholeTop = top(whole);
  const merged = new Map<string, { hit: RankedId; whole: number; parts: number }>();
  for (const hit of whole) merged.set(hit.id, { hit, whole: hit.score / wholeTop, parts: 0 });
  for (const list of parts) {
    const best = top(list);
    for (const hit of list) {
      const entry = merged.get(hit.id) ?? { hit, whole: 0, parts: 0 };
      entry.parts = Math.max(entry.parts, hit.score / best);
      merged.set(hit.id, entry);
    }
  }
  const ranked = [...merged.values()].map(({ hit, whole: w, parts: p }) => ({
    ...hit,
    score: ((w + QUERY_PARTS_WEIGHT * p) / (1 + QUERY_PARTS_WEIGHT)) * wholeTop,
  }));
  return ranked.sort((a, b) => b.score - a.score || a.id.localeCompare(b.id));
}
