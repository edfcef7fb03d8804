/**
 * Deterministic developer-memory corpus: memory `i` is a pure function of (seed, i), so the
 * 10k corpus is the first 10k of the 100k one and every run (and the baseline) sees the same
 * text. Each memory comes with three questions whose known answer it is: a natural one, a
 * keyword-y one and a paraphrase that uses synonyms (which only the expansion keywords carry).
 */
import { type MemoryCategory } from '@cairn/memory';
import { type Draft, fill, Picker, prng, type QueryStyle, slots, TEMPLATES } from './templates';
import * as V from './vocabulary';

export { type QueryStyle };

export const CORPUS_SEED = 0x5eed_ca12;

export interface CorpusMemory {
  readonly content: string;
  readonly category: MemoryCategory;
  readonly tags: string[];
  readonly keywords: string[];
  readonly importance: number;
  readonly confidence: number;
  /** created_at = run start minus this many days. */
  readonly ageDays: number;
}

export interface CorpusQuery {
  readonly text: string;
  readonly style: QueryStyle;
  /** Index of the memory that answers it. */
  readonly target: number;
}

function draft(index: number, seed: number): { draft: Draft; picker: Picker } {
  const picker = new Picker(prng(Math.imul(seed ^ index, 0x9e3779b1) ^ index));
  const s = slots(picker);
  const chosen = TEMPLATES[index % TEMPLATES.length];
  let made = chosen(picker, s);
  // 10–60 words: up to three extra sentences on some memories.
  const extras = [...V.EXTRAS];
  let content = made.content;
  for (let left = picker.int(0, 3); left > 0; left--) {
    const [extra] = extras.splice(picker.int(0, extras.length - 1), 1);
    content += ` ${fill(extra ?? '', s)}`;
  }
  made = { ...made, content };
  return { draft: made, picker };
}

export function corpusMemory(index: number, seed = CORPUS_SEED): CorpusMemory {
  const { draft: d, picker } = draft(index, seed);
  return {
    content: d.content,
    category: d.category,
    tags: [...new Set(d.tags.map((tag) => tag.toLowerCase()))],
    keywords: [...new Set(d.keywords)],
    importance: picker.int(1, 5),
    confidence: Math.round((0.5 + picker.next() * 0.5) * 100) / 100,
    ageDays: Math.round(picker.next() * 365 * 100) / 100,
  };
}

/**
 * `count` questions about memories among the first `population`, 45% natural, 30% keyword-y,
 * 25% paraphrased; the same for every corpus size at least `population` large.
 */
export function corpusQueries(count: number, population: number, seed = CORPUS_SEED): CorpusQuery[] {
  const pick = new Picker(prng(seed ^ 0x51ab1e));
  const queries: CorpusQuery[] = [];
  for (let i = 0; i < count; i++) {
    const target = pick.int(0, population - 1);
    const roll = pick.next();
    const style: QueryStyle = roll < 0.45 ? 'natural' : roll < 0.75 ? 'keyword' : 'paraphrase';
    queries.push({ text: draft(target, seed).draft.questions[style], style, target });
  }
  return queries;
}
