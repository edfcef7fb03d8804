-- Ranking statement, keyword only: rankingStatement (libs/search/src/ranking.sql.ts), run by RankingRepository.rank
-- $1 = ["6f1c2f4e-3b1d-4c59-9a77-0d6c1f0e2a11"]
-- $2 = "how are staging deploys triggered?"
-- $3 = 24
-- $4 = 400
-- $5 = 50
WITH
  kw_lexemes AS (
    SELECT DISTINCT u.lexeme FROM unnest(to_tsvector('english', $2)) u
  ),
  kw_stats AS MATERIALIZED (
    SELECT s.most_common_elems::text::text[] AS elems, s.most_common_elem_freqs AS freqs
    FROM pg_stats s
    WHERE s.schemaname = current_schema() AND s.tablename = 'memories' AND s.attname = 'tsv'
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
    LIMIT $3
  ),
  kw_query AS (
    SELECT coalesce(
      (string_agg(term, ' | ') FILTER (WHERE share < 0.05))::tsquery,
      string_agg(term, ' | ')::tsquery
    ) AS q
    FROM kw_weights
  ),
  kw_candidates AS (
    SELECT c.id, c.tsv, c.importance, c.confidence, c.pinned, c.created_at
    FROM memories c, kw_query
    WHERE c.tsv @@ kw_query.q AND c.deleted_at IS NULL AND (c.project_id = ANY($1::uuid[]) OR c.project_id IS NULL) AND c.archived_at IS NULL AND c.superseded_by IS NULL
    ORDER BY ts_rank(c.tsv, kw_query.q) DESC, c.id
    LIMIT $4
  ),
  kw_scored AS (
    SELECT k.id, sum(wt.idf * ts_rank('{0.3, 0.5, 0.7, 1}'::float4[], k.tsv, wt.lexeme_query, 1)) AS score
    FROM kw_candidates k JOIN kw_weights wt ON k.tsv @@ wt.lexeme_query
    GROUP BY k.id
  ),
  kw_out AS (
    SELECT 'keyword'::text AS list, k.id, s.score::float8 AS score, k.importance, k.confidence, k.pinned, k.created_at
    FROM kw_scored s JOIN kw_candidates k USING (id)
    ORDER BY s.score DESC, k.id
    LIMIT $5
  ) SELECT * FROM kw_out;
