import { assertSafeModelId, type EmbeddingModel, toVectorLiteral } from '@cairn/embeddings';
import { type SqlParams } from './sql-params';

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
  /** Extra condition for a usable vector, e.g. that it was made from the current content. */
  readonly vectorCurrent?: string;
}

export interface KeywordOptions {
  /** How many full-text matches, pre-ranked by ts_rank, are scored with BM25. */
  readonly candidates: number;
  readonly limit: number;
}

/** Terms in more than this share of rows select no candidates on their own (they still score). */
const COMMON_TERM_SHARE = 0.05;
const BM25_K1 = 1.2;
const BM25_B = 0.75;

/**
 * Keyword ranker: the query's lexemes (English stemming, stop words dropped) OR-ed together,
 * so a natural-language question needs no exact phrase; candidates pre-ranked by ts_rank,
 * then scored with BM25 over field-weighted term frequencies. Inverse document frequency
 * comes from the planner's own statistics (`most_common_elems` of the tsvector column), so
 * rare terms count most without a separate term index. Returns CTEs named `kw_*` and a final
 * `kw_out(list, id, score, importance, confidence, pinned, created_at)`.
 */
export function keywordCtes(corpus: Corpus, queryParam: string, options: KeywordOptions): string {
  const w = corpus.fieldWeights;
  const fieldWeight = `CASE x WHEN 'A' THEN ${w.A} WHEN 'B' THEN ${w.B} WHEN 'C' THEN ${w.C} ELSE ${w.D} END`;
  return `
  kw_lexemes AS (
    SELECT DISTINCT u.lexeme FROM unnest(to_tsvector('english', ${queryParam})) u LIMIT 32
  ),
  kw_stats AS (
    SELECT s.most_common_elems::text::text[] AS elems, s.most_common_elem_freqs AS freqs
    FROM pg_stats s
    WHERE s.schemaname = current_schema() AND s.tablename = '${corpus.table}' AND s.attname = 'tsv'
  ),
  kw_terms AS (
    SELECT l.lexeme, plainto_tsquery('simple', l.lexeme)::text AS term,
           coalesce(st.freqs[array_position(st.elems, l.lexeme)], st.freqs[array_length(st.elems, 1) + 1] / 2, 0.01) AS share
    FROM kw_lexemes l LEFT JOIN kw_stats st ON true
  ),
  kw_weights AS (
    SELECT lexeme, term, share, ln(1 + (1 - least(share, 0.99)) / greatest(share, 0.0001)) AS idf
    FROM kw_terms WHERE term <> ''
  ),
  kw_query AS (
    SELECT coalesce(
      (string_agg(term, ' | ') FILTER (WHERE share < ${COMMON_TERM_SHARE}))::tsquery,
      string_agg(term, ' | ')::tsquery
    ) AS q
    FROM kw_weights
  ),
  kw_candidates AS (
    SELECT c.id, c.tsv, length(c.tsv) AS dl, ${corpus.signals}
    FROM ${corpus.table} c, kw_query
    WHERE c.tsv @@ kw_query.q AND ${corpus.where}
    ORDER BY ts_rank(c.tsv, kw_query.q) DESC
    LIMIT ${Math.trunc(options.candidates)}
  ),
  kw_scored AS (
    SELECT k.id, sum(wt.idf * (t.tf * ${BM25_K1 + 1}) / (t.tf + ${BM25_K1} * (${1 - BM25_B} + ${BM25_B} * k.dl / greatest(a.avg_dl, 1)))) AS score
    FROM kw_candidates k
    CROSS JOIN (SELECT avg(dl) AS avg_dl FROM kw_candidates) a
    CROSS JOIN LATERAL (
      SELECT u.lexeme, coalesce((SELECT sum(${fieldWeight}) FROM unnest(u.weights) x), 1) AS tf
      FROM unnest(k.tsv) u
    ) t
    JOIN kw_weights wt ON wt.lexeme = t.lexeme
    GROUP BY k.id
  ),
  kw_out AS (
    SELECT 'keyword'::text AS list, k.id, s.score::float8 AS score, k.importance, k.confidence, k.pinned, k.created_at
    FROM kw_scored s JOIN kw_candidates k USING (id)
    ORDER BY s.score DESC
    LIMIT ${Math.trunc(options.limit)}
  )`;
}

/**
 * Semantic ranker: cosine distance on the model's own partial HNSW index
 * (`embedding::vector(dims)` where `embedding_model = '<id>'`); the literal model id and
 * dimension let the planner match that index. Pair with `hnsw.iterative_scan` so
 * filters do not starve the result. Returns a CTE `vec_out` with the same columns as kw_out.
 */
export function vectorCte(
  corpus: Corpus,
  model: EmbeddingModel,
  vector: ArrayLike<number>,
  params: SqlParams,
  limit: number,
): string {
  const modelId = assertSafeModelId(model.id);
  const dims = Math.trunc(model.dimensions);
  const v = params.add(toVectorLiteral(vector));
  const current = corpus.vectorCurrent ? ` AND ${corpus.vectorCurrent}` : '';
  return `
  vec_out AS (
    SELECT 'semantic'::text AS list, c.id, (1 - (c.embedding::vector(${dims}) <=> ${v}::vector(${dims})))::float8 AS score,
           ${corpus.signals}
    FROM ${corpus.table} c
    WHERE c.embedding_model = '${modelId}'${current} AND ${corpus.where}
    ORDER BY c.embedding::vector(${dims}) <=> ${v}::vector(${dims})
    LIMIT ${Math.trunc(limit)}
  )`;
}

/** GUCs for the search transaction: keep HNSW scanning until filtered results suffice. */
export function vectorSearchSettings(limit: number): Record<string, string> {
  return { 'hnsw.iterative_scan': 'relaxed_order', 'hnsw.ef_search': String(Math.min(1000, Math.max(40, limit * 2))) };
}
