import { type Binder } from '@cairn/db';
import { type KeywordOptions, type RenderedCorpus } from './ranking.types';

/**
 * Okapi BM25's term-frequency saturation and length normalisation. Full length normalisation
 * (b = 1, textbook 0.75) and slower saturation (k1 = 2, textbook 1.2), chosen on LongMemEval
 * (docs/retrieval.md): a memory store mixes one-line facts with long notes and replies, and a
 * long text that mentions the question's words in passing must not outrank the short statement
 * that answers it. Measured there: keyword recall@10 60.0% → 66.1%, hybrid 61.6% → 67.5%.
 */
export const BM25 = { k1: 2, b: 1 } as const;

/**
 * How much more a term of a name, identifier or quoted phrase in the question counts than a
 * common word of the same rarity (queryEntities): enough to decide between near-equal
 * matches, not to let one name outweigh the rest of the question.
 */
export const ENTITY_WEIGHT = 1.5;

/** π²/6, the limit of Σ 1/i². */
const ZETA_2 = '1.6449340668482264';

/**
 * A lexeme's frequency in a row, in SQL. ts_rank of a one-lexeme query with every weight 1 and
 * no normalisation is H(tf) / (π²/6), where H(tf) = Σ 1/i² for i = 1..tf (PostgreSQL's
 * calc_rank_or), and the tail π²/6 − H(tf) is 1/(tf + ½) to well within ½, so the frequency
 * comes back exactly (the SQL snapshot spec checks it against the positions, 1 to 256) from
 * one call over the stored tsvector; unnesting the tsvector instead costs ten times more.
 */
export function termFrequencySql(tsv: string, lexemeQuery: string): string {
  return `greatest(1, round(1 / (${ZETA_2} - ts_rank('{1,1,1,1}', ${tsv}, ${lexemeQuery}, 0) * ${ZETA_2}) - 0.5))`;
}

/** A lexeme as a one-term tsquery, quoted so that no character in it acts as an operator. */
export function lexemeQuerySql(lexeme: string): string {
  return `('''' || replace(replace(${lexeme}, '\\', '\\\\'), '''', '''''') || '''')::tsquery`;
}

/**
 * The query's terms (`kw_terms`: lexeme, document frequency, one-term tsquery and IDF, the
 * `maxTerms` rarest, entity terms weighed up) and the corpus figures (`kw_corpus`: rows and
 * average length), from the term statistics: what both the ranker (keywordCtes) and the
 * relevance signals (relevance.sql.ts) read, so they share one vocabulary.
 */
export function keywordTermCtes(
  corpus: RenderedCorpus,
  params: Binder,
  query: string,
  options: Pick<KeywordOptions, 'entities' | 'maxTerms'>,
): string {
  const queryParam = params.add(query);
  const entities = params.add(options.entities);
  const scopes = params.add(corpus.termScopes);
  // A parameter too: one statement text per corpus and filter shape, prepared once per connection.
  const maxTerms = params.add(Math.trunc(options.maxTerms));
  // One lookup per lexeme on the table's key, never one over the whole corpus: both tables change
  // faster than their statistics (the fold moves every delta into the totals and deletes it), and
  // with the lexemes as one array the planner, trusting statistics taken before a fold, scanned
  // every key of the corpus: all of a fold's dead deltas (760k index entries, 137 ms) or all the
  // totals. Equality on each lexeme keeps the lookup on the key whatever the statistics say; the
  // deltas' key leads with (corpus, lexeme) so that a cached generic plan, which cannot count the
  // scopes, still prices the lookup as one descent (tenant migration 0020).
  const counted = (table: string, alias: string) => `CROSS JOIN LATERAL (
      SELECT sum(${alias}.docs)::float8 AS docs, sum(${alias}.tokens)::float8 AS tokens FROM ${table} ${alias}
      WHERE ${alias}.corpus = '${corpus.table}' AND ${alias}.scope = ANY(${scopes}::uuid[]) AND ${alias}.lexeme = l.lexeme
    ) ${alias}`;
  return `
  kw_lexemes AS (
    SELECT DISTINCT u.lexeme FROM unnest(to_tsvector('english', ${queryParam})) u
  ),
  kw_entities AS (
    SELECT DISTINCT u.lexeme FROM unnest(to_tsvector('english', ${entities})) u
  ),
  kw_counts AS MATERIALIZED (
    SELECT l.lexeme, coalesce(t.docs, 0) + coalesce(d.docs, 0) AS docs,
           coalesce(t.tokens, 0) + coalesce(d.tokens, 0) AS tokens
    FROM (SELECT lexeme FROM kw_lexemes UNION SELECT ''::text) l
    ${counted('term_counts', 't')}
    ${counted('term_count_deltas', 'd')}
  ),
  kw_corpus AS MATERIALIZED (
    SELECT greatest(coalesce(max(docs) FILTER (WHERE lexeme = ''), 0), 1) AS n,
           greatest(coalesce(max(tokens / nullif(docs, 0)) FILTER (WHERE lexeme = ''), 1), 1) AS avgdl
    FROM kw_counts
  ),
  kw_terms AS MATERIALIZED (
    SELECT l.lexeme, f.df, ${lexemeQuerySql('l.lexeme')} AS q,
           ln(1 + (k.n - f.df + 0.5) / (f.df + 0.5))
             * CASE WHEN l.lexeme IN (SELECT lexeme FROM kw_entities) THEN ${ENTITY_WEIGHT} ELSE 1 END AS idf
    FROM kw_lexemes l LEFT JOIN kw_counts c ON c.lexeme = l.lexeme CROSS JOIN kw_corpus k
    CROSS JOIN LATERAL (SELECT least(greatest(coalesce(c.docs, 0), 0), k.n) AS df) f
    ORDER BY f.df, l.lexeme
    LIMIT ${maxTerms}
  )`;
}

/**
 * Keyword ranker: Okapi BM25 over the query's lexemes (English stemming, stop words dropped),
 * any of which may match, so a natural-language question needs no exact phrase. Document
 * frequencies, the row count and the average row length come from the term statistics the
 * write path keeps per project (`term_counts` plus the deltas not folded in yet; tenant
 * migration 8), so a fresh project ranks the same before and after ANALYZE, and one project's
 * vocabulary is not weighed by another's. A row's length is its number of indexed words
 * (`tsv_tokens`).
 *
 * Candidates are the rows matching the rarest query terms whose document frequencies add up to
 * at most `matchBudget`: a row matching only common terms rarely outscores one matching a rare
 * term. When even the rarest term holds more rows than the budget (every word of the question is
 * common in a large corpus: at 1M memories the rarest matched 27,538 rows, 269 ms), candidates
 * must hold the rarest term and at least one more, then the two rarest and one more, and so on,
 * to the fewest required terms whose expected rows fit the budget (by their document frequencies,
 * as if terms occurred independently; at worst every term), read up to the budget (words of one
 * question do occur together, so the estimate can be far below the truth; past the budget the
 * rows are the first in storage order), and, when they are less than a page, a page (`limit`) of
 * the rarest term's other rows, so words that seldom meet still give one. The GIN index
 * intersects the posting lists, so the rows read stay within the budget and a page at any corpus
 * size, and a row holding several of the question's words is what BM25 ranks first among rows of
 * common words anyway.
 * Each candidate is scored on all the terms (the `maxTerms` rarest); terms of the question's
 * names and identifiers (`entities`) weigh ENTITY_WEIGHT times their IDF. Ties are broken by id, so
 * the result never depends on the plan. Returns CTEs named `kw_*` and a final
 * `kw_out(list, id, score, importance, confidence, pinned, created_at)`.
 */
export function keywordCtes(corpus: RenderedCorpus, params: Binder, query: string, options: KeywordOptions): string {
  const terms = keywordTermCtes(corpus, params, query, options);
  // Sizes are parameters too: one statement text per corpus and filter shape, prepared once per connection.
  const [matchBudget, limit] = [options.matchBudget, options.limit].map((n) => params.add(Math.trunc(n)));
  const { k1, b } = BM25;
  return `${terms},
  kw_ranked AS MATERIALIZED (
    SELECT s.*,
           -- Rows expected to hold the i rarest terms and at least one more (all of them, for the last)
           -- if the terms occur independently: n · Π(df/n over the first i) · (1 − Π(1 − df/n over the rest)).
           k.n * exp(s.ln_first) * CASE WHEN s.i = s.terms THEN 1 ELSE 1 - exp(coalesce(s.ln_rest, 0)) END AS expected
    FROM (SELECT t.q, t.df, row_number() OVER w AS i, count(*) OVER () AS terms, sum(t.df) OVER w AS running,
                 sum(ln(greatest(t.df, 0.5) / k.n)) OVER w AS ln_first,
                 sum(ln(greatest(1 - t.df / k.n, 1e-9))) OVER (w ROWS BETWEEN 1 FOLLOWING AND UNBOUNDED FOLLOWING) AS ln_rest
          FROM kw_terms t CROSS JOIN kw_corpus k
          WINDOW w AS (ORDER BY t.df, t.lexeme)) s CROSS JOIN kw_corpus k
  ),
  kw_required AS (
    SELECT CASE WHEN min(df) <= ${matchBudget} THEN 0
                ELSE coalesce(min(i) FILTER (WHERE expected <= ${matchBudget}), max(i)) END AS j
    FROM kw_ranked
  ),
  kw_query AS (
    SELECT (CASE WHEN r.j = 0 THEN string_agg(t.q::text, ' | ') FILTER (WHERE t.running <= ${matchBudget} OR t.i = 1)
                 ELSE '(' || string_agg(t.q::text, ' & ') FILTER (WHERE t.i <= r.j) || ')'
                      || coalesce(' & (' || string_agg(t.q::text, ' | ') FILTER (WHERE t.i > r.j) || ')', '')
            END)::tsquery AS q,
           -- With required terms the estimate can be far off (words of one question occur together:
           -- in a corpus of 1M rows 15,807 held all of a question's required terms against 1,500
           -- expected), so the rows read stop at the budget, in storage order; none: no bound needed.
           CASE WHEN r.j > 0 THEN ${matchBudget}::bigint END AS cap,
           -- With required terms, a page of the rarest term's other rows too when they give less than
           -- a page (kw_scored), so terms that seldom occur together still give one.
           CASE WHEN r.j > 0 AND count(*) > 1 THEN min(t.q::text) FILTER (WHERE t.i = 1)::tsquery END AS fallback
    FROM kw_ranked t CROSS JOIN kw_required r
    GROUP BY r.j
  ),
  -- Each match's tsvector detoasted once: the concatenation makes an in-memory copy, kept by the
  -- materialisation. The scoring reads it twice per term; a row's tsvector is usually out of line
  -- (TOASTed) beside its content and vector, and was fetched again on every read: half of the
  -- statement's time on conversational text.
  kw_matched AS MATERIALIZED (
    SELECT c.id, ${corpus.signals}, c.tsv_tokens, c.tsv || ''::tsvector AS tsv
    FROM ${corpus.table} c, kw_query
    WHERE c.tsv @@ kw_query.q AND ${corpus.where}
    LIMIT (SELECT cap FROM kw_query)
  ),
  kw_scored AS (
    SELECT c.id, c.importance, c.confidence, c.pinned, c.created_at,
           (SELECT sum(t.idf * f.tf * ${k1 + 1} / (f.tf + ${k1} * (${1 - b} + ${b} * c.tsv_tokens / k.avgdl)))
            FROM kw_terms t CROSS JOIN LATERAL (SELECT ${termFrequencySql('c.tsv', 't.q')} AS tf) f
            WHERE c.tsv @@ t.q) AS score
    FROM (SELECT * FROM kw_matched
          UNION ALL
          -- Values of one-row subqueries (computed once, before the scan): unless the required terms
          -- gave less than a page the scan is never started; when it runs its term is the index condition.
          (SELECT c.id, ${corpus.signals}, c.tsv_tokens, c.tsv || ''::tsvector AS tsv
           FROM ${corpus.table} c
           WHERE (SELECT fallback IS NOT NULL FROM kw_query) AND (SELECT count(*) FROM kw_matched) < ${limit}
             AND c.tsv @@ (SELECT fallback FROM kw_query) AND NOT (c.tsv @@ (SELECT q FROM kw_query))
             AND ${corpus.where}
           LIMIT ${limit})) c, kw_corpus k
  ),
  kw_out AS (
    SELECT 'keyword'::text AS list, s.id, s.score::float8 AS score, s.importance, s.confidence, s.pinned, s.created_at
    FROM kw_scored s
    ORDER BY s.score DESC, s.id
    LIMIT ${limit}
  )`;
}
