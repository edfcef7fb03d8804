import { STOPWORDS } from '@cairn/embeddings';

/** Words shorter than this carry little evidence (ids, articles that escaped the stop list). */
const MIN_TERM = 3;
/** Terms compare on their first letters: a crude stemmer that makes "indexing" meet "indexed". */
const STEM = 5;

/**
 * The content terms of a text: words and identifier parts (`parseFile` → parse, file), lower
 * case, stop words left out, each cut to its first letters.
 */
export function termsOf(text: string): Set<string> {
  const terms = new Set<string>();
  const spaced = text.replace(/([a-z0-9])([A-Z])/g, '$1 $2').replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2');
  for (const word of spaced.toLowerCase().split(/[^\p{L}\p{N}]+/u)) {
    if (word.length < MIN_TERM || STOPWORDS.has(word)) continue;
    terms.add(word.slice(0, STEM));
  }
  return terms;
}

/** The share of the question's terms found in the evidence: 0 when the question has none. */
export function coverageOf(question: ReadonlySet<string>, evidence: ReadonlySet<string>): number {
  if (question.size === 0) return 0;
  let found = 0;
  for (const term of question) if (evidence.has(term)) found++;
  return found / question.size;
}
