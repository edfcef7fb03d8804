import { assertSafeModelId, type EmbeddingModel, toVectorLiteral } from '@cairn/embeddings';
import { type SqlParams } from '@cairn/db';
import { type Corpus } from './contract/corpus';
import { type KeywordOptions, type RankingPlan } from './ranking.types';

/** Terms in more than this share of rows select no candidates on their own (they still score). */
const COMMON_TERM_SHARE = 0.05;

/**
 * The whole ranking statement of a plan: the keyword and/or the semantic ranker's CTEs, their
 * rows under one UNION ALL (`list` says which ranker a row comes from). Parameters are added to
 * `params` in a fixed order (keyword first), so one plan shape over one corpus filter shape is
 * always the same text, prepared once per connection.
 */
export function rankingStatement(corpus: Corpus, params: SqlParams, plan: RankingPlan): string {
  const ctes: string[] = [];
  const parts: string[] = [];
  if (plan.keyword) {
    const { query, ...options } = plan.keyword;
    ctes.push(keywordCtes(corpus, params, query, options));
    parts.push('SELECT * FROM kw_out');
  }
  if (plan.semantic) {
    const { model, vector, limit, exact } = plan.semantic;
    ctes.push(vectorCte(corpus, model, vector, params, { limit, exact }));
    parts.push('SELECT * FROM vec_out');
  }
  return `WITH ${ctes.join(',')} ${parts.join(' UNION ALL ')}`;
}

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

/**
 * How many of `table`'s rows carry a vector of `model`, counting no further than `maxRows + 1`:
 * enough to tell whether the corpus is small enough to rank exactly (VectorScanChoice)
 * without scanning a big one.
 */
export function vectorRowCount(table: string, model: EmbeddingModel, maxRows: number): string {
  return `SELECT count(*)::int AS n FROM (SELECT 1 FROM ${table} WHERE embedding_model = '${assertSafeModelId(model.id)}'
       LIMIT ${maxRows + 1}) s`;
}
