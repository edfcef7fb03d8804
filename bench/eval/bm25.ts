/**
 * The lexical baseline `npm run eval` prints beside every Cairn mode: textbook Okapi BM25 over
 * the same items and questions, in memory. It answers "does Cairn's ranking beat the plain,
 * well-known ranker a reader would try first?", so it is kept deliberately standard:
 *
 *   score(D, Q) = Σ over query tokens q of  IDF(q) · f(q,D)·(k1 + 1) / (f(q,D) + k1·(1 − b + b·|D|/avgdl))
 *   IDF(q)      = ln(1 + (N − df(q) + 0.5) / (df(q) + 0.5))      (always positive; Lucene's form)
 *
 * with k1 = 1.2, b = 0.75. |D| and avgdl count indexed tokens (after stop words are dropped).
 * A query token that occurs twice counts twice, as in Lucene's bag-of-words queries and
 * rank_bm25. Documents sharing no token with the query are not returned.
 */
import stem from 'wink-porter2-stemmer';

export const BM25_K1 = 1.2;
export const BM25_B = 0.75;

/**
 * The Snowball English stop list, as PostgreSQL ships it (tsearch_data/english.stop). With the
 * Porter2 (Snowball English) stemmer below this is the normalisation of PostgreSQL's `english`
 * configuration, the one Cairn's keyword ranker reads: BM25 and Cairn's keyword mode then differ
 * in how they score, not in which words they see.
 */
const STOP_WORDS: ReadonlySet<string> = new Set(
  (
    'i me my myself we our ours ourselves you your yours yourself yourselves he him his himself she her hers ' +
    'herself it its itself they them their theirs themselves what which who whom this that these those am is are ' +
    'was were be been being have has had having do does did doing a an the and but if or because as until while ' +
    'of at by for with about against between into through during before after above below to from up down in out ' +
    'on off over under again further then once here there when where why how all any both each few more most ' +
    'other some such no nor not only own same so than too very s t can will just don should now'
  ).split(' '),
);

/** Lowercase, split on anything not a letter or digit, drop stop words, stem (Porter2). */
export function tokenize(text: string): string[] {
  const tokens: string[] = [];
  for (const word of text.toLowerCase().split(/[^\p{L}\p{N}]+/u)) {
    if (word === '' || STOP_WORDS.has(word)) continue;
    tokens.push(stem(word));
  }
  return tokens;
}

export interface Bm25Hit {
  readonly key: string;
  readonly score: number;
}

export interface Bm25Options {
  readonly k1?: number;
  readonly b?: number;
}

/** An inverted index over a fixed set of documents; build once, query many times. */
export class Bm25Index {
  readonly size: number;
  readonly averageLength: number;
  private readonly keys: string[] = [];
  private readonly lengths: number[] = [];
  /** token → (document number → term frequency) */
  private readonly postings = new Map<string, Map<number, number>>();
  private readonly k1: number;
  private readonly b: number;

  constructor(documents: Iterable<{ readonly key: string; readonly text: string }>, options: Bm25Options = {}) {
    this.k1 = options.k1 ?? BM25_K1;
    this.b = options.b ?? BM25_B;
    let total = 0;
    for (const { key, text } of documents) {
      const doc = this.keys.length;
      const tokens = tokenize(text);
      this.keys.push(key);
      this.lengths.push(tokens.length);
      total += tokens.length;
      for (const token of tokens) {
        let posting = this.postings.get(token);
        if (!posting) this.postings.set(token, (posting = new Map<number, number>()));
        posting.set(doc, (posting.get(doc) ?? 0) + 1);
      }
    }
    this.size = this.keys.length;
    this.averageLength = this.size > 0 ? total / this.size : 0;
  }

  /** Documents containing the token: df in the IDF. */
  documentFrequency(token: string): number {
    return this.postings.get(token)?.size ?? 0;
  }

  idf(token: string): number {
    const df = this.documentFrequency(token);
    return Math.log(1 + (this.size - df + 0.5) / (df + 0.5));
  }

  /** The best `limit` documents for `query`, best first; ties keep corpus order, so runs repeat exactly. */
  search(query: string, limit: number): Bm25Hit[] {
    const scores = new Map<number, number>();
    for (const token of tokenize(query)) {
      const posting = this.postings.get(token);
      if (!posting) continue;
      const idf = this.idf(token);
      for (const [doc, tf] of posting) {
        const norm = this.k1 * (1 - this.b + (this.b * (this.lengths[doc] ?? 0)) / this.averageLength);
        scores.set(doc, (scores.get(doc) ?? 0) + (idf * tf * (this.k1 + 1)) / (tf + norm));
      }
    }
    return [...scores]
      .sort(([docA, a], [docB, b]) => b - a || docA - docB)
      .slice(0, limit)
      .map(([doc, score]) => ({ key: this.keys[doc] ?? '', score }));
  }
}
