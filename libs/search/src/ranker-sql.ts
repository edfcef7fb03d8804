import { assertSafeModelId, type EmbeddingModel, toVectorLiteral } from '@cairn/embeddings';
import { type SqlParams } from '@cairn/db';

/**
 * A searchable table as the rankers see it. Identifiers here are trusted constants from
 * the owning repository, never user input; filters arrive as SQL over alias `c` whose
 * values are already bound through the shared SqlParams.
 */
export interface Corpus {
  readonly table: string;
  /** Boolean SQL over alias `c`. */
  readonly where: string;
  /** Columns over alias `c` returned as the ranking signals, aliased importance, confidence, pinned, created_at. */
  readonly signals: string;
  /** Weight of a term occurrence by tsvector weight class (content A, keywords B, tags C, category D). */
  readonly fieldWeights: Readonly<Record<'A' | 'B' | 'C' | 'D', number>>;
}

export interface KeywordOptions {
  /** How many full-text matches, pre-ranked by ts_rank, are scored term by term. */
  readonly candidates: number;
  readonly limit: number;
  /** Only the rarest this-many query terms are used: long queries stay cheap and focused. */
  readonly maxTerms: number;
}

/** Terms in more than this share of rows select no candidates on their own (they still score). */
const COMMON_TERM_SHARE = 0.05;

/**
 * Keyword ranker: the query's lexemes (English stemming, stop words dropped) OR-ed together,
 * so a natural-language question needs no exact phrase; candidates pre-ranked by ts_rank,
 * then scored BM25-style: the sum over matched query terms of inverse document frequency
 * times that term's own ts_rank (saturating in term frequency, weighted by field, normalised
 * by document length). Document frequencies come from the planner's statistics
 * (`most_common_elems` of the tsvector column), so rare terms count most without a separate
 * term index. Ties are broken by id, so the result never depends on the plan. Returns CTEs named `kw_*` and a final
 * `kw_out(list, id, score, importance, confidence, pinned, created_at)`.
 */
export function keywordCtes(corpus: Corpus, params: SqlParams, query: string, options: KeywordOptions): string {
  const queryParam = params.add(query);
  // Sizes are parameters too: one statement text per corpus and filter shape, prepared once per connection.
  const [maxTerms, candidates, limit] = [options.maxTerms, options.candidates, options.limit].map((n) =>
    params.add(Math.trunc(n)),
  );
  const w = corpus.fieldWeights;
  // ts_rank takes weights in the order {D, C, B, A}.
  const weightsArray = `'{${w.D}, ${w.C}, ${w.B}, ${w.A}}'::float4[]`;
  return `
  kw_lexemes AS (
    SELECT DISTINCT u.lexeme FROM unnest(to_tsvector('english', ${queryParam})) u
  ),
  kw_stats AS MATERIALIZED (
    SELECT s.most_common_elems::text::text[] AS elems, s.most_common_elem_freqs AS freqs
    FROM pg_stats s
    WHERE s.schemaname = current_schema() AND s.tablename = '${corpus.table}' AND s.attname = 'tsv'
  ),
  kw_terms AS (
    SELECT l.lexeme, plainto_tsquery('simple', l.lexeme)::text AS term,
           coalesce(st.freqs[array_position(st.elems, l.lexeme)], st.freqs[array_length(st.elems, 1) + 1] / 2, 0.01) AS share
    FROM kw_lexemes l LEFT JOIN kw_stats st ON true
  ),
  kw_weights AS MATERIALIZED (
    SELECT lexeme, term, term::tsquery AS lexeme_query, share,
           ln(1 + (1 - least(share, 0.99)) / greatest(share, 0.0001)) AS idf
    FROM kw_terms WHERE term <> ''
    ORDER BY share, lexeme
    LIMIT ${maxTerms}
  ),
  kw_query AS (
    SELECT coalesce(
      (string_agg(term, ' | ') FILTER (WHERE share < ${COMMON_TERM_SHARE}))::tsquery,
      string_agg(term, ' | ')::tsquery
    ) AS q
    FROM kw_weights
  ),
  kw_candidates AS (
    SELECT c.id, c.tsv, ${corpus.signals}
    FROM ${corpus.table} c, kw_query
    WHERE c.tsv @@ kw_query.q AND ${corpus.where}
    ORDER BY ts_rank(c.tsv, kw_query.q) DESC, c.id
    LIMIT ${candidates}
  ),
  kw_scored AS (
    SELECT k.id, sum(wt.idf * ts_rank(${weightsArray}, k.tsv, wt.lexeme_query, 1)) AS score
    FROM kw_candidates k JOIN kw_weights wt ON k.tsv @@ wt.lexeme_query
    GROUP BY k.id
  ),
  kw_out AS (
    SELECT 'keyword'::text AS list, k.id, s.score::float8 AS score, k.importance, k.confidence, k.pinned, k.created_at
    FROM kw_scored s JOIN kw_candidates k USING (id)
    ORDER BY s.score DESC, k.id
    LIMIT ${limit}
  )`;
}

/**
 * Semantic ranker: cosine distance on the model's own partial HNSW index
 * (`embedding::vector(dims)` where `embedding_model = '<id>'`); the literal model id and
 * dimension let the planner match that index. Pair with `hnsw.iterative_scan` so
 * filters do not starve the result. Owners clear a vector when its text changes, so the
 * model condition alone means "current": an extra column comparison here would wreck the
 * planner's row estimate and push it to a sequential scan. With `exact`, the ordering is
 * by score, which no index serves: every vector is compared (see VectorScanChoice). Returns
 * a CTE `vec_out` with the same columns as kw_out.
 */
export function vectorCte(
  corpus: Corpus,
  model: EmbeddingModel,
  vector: ArrayLike<number>,
  params: SqlParams,
  options: { readonly limit: number; readonly exact: boolean },
): string {
  const modelId = assertSafeModelId(model.id);
  const dims = Math.trunc(model.dimensions);
  const v = params.add(toVectorLiteral(vector));
  const distance = `c.embedding::vector(${dims}) <=> ${v}::vector(${dims})`;
  return `
  vec_out AS (
    SELECT 'semantic'::text AS list, c.id, (1 - (${distance}))::float8 AS score,
           ${corpus.signals}
    FROM ${corpus.table} c
    WHERE c.embedding_model = '${modelId}' AND ${corpus.where}
    ORDER BY ${options.exact ? 'score DESC, c.id' : distance}
    LIMIT ${params.add(Math.trunc(options.limit))}
  )`;
}

/** Candidates each ranker contributes to fusion for a result list of `limit`. */
export function candidatesPerList(limit: number): number {
  return Math.max(50, limit * 4);
}

/**
 * GUCs for the search transaction: keep HNSW scanning until filtered results suffice, with a
 * search list well above the candidates asked for (recall of the approximate index falls
 * off quickly when ef_search is close to the LIMIT).
 */
export function vectorSearchSettings(limit: number): Record<string, string> {
  const efSearch = Math.min(1000, Math.max(100, candidatesPerList(limit) * 2));
  return { 'hnsw.iterative_scan': 'relaxed_order', 'hnsw.ef_search': String(efSearch) };
}
