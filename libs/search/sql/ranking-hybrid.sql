-- Ranking statement, hybrid (keyword + semantic, HNSW index scan): rankingStatement (libs/search/src/ranking.sql.ts), run by RankingRepository.rank
-- $1 = ["6f1c2f4e-3b1d-4c59-9a77-0d6c1f0e2a11"]
-- $2 = "how are staging deploys triggered by Helm?"
-- $3 = "Helm"
-- $4 = ["6f1c2f4e-3b1d-4c59-9a77-0d6c1f0e2a11","00000000-0000-0000-0000-000000000000"]
-- $5 = 24
-- $6 = 1500
-- $7 = 50
-- $8 = <the query vector, 768 dimensions>
-- $9 = 50
WITH
  kw_lexemes AS (
    SELECT DISTINCT u.lexeme FROM unnest(to_tsvector('english', $2)) u
  ),
  kw_entities AS (
    SELECT DISTINCT u.lexeme FROM unnest(to_tsvector('english', $3)) u
  ),
  kw_counts AS MATERIALIZED (
    SELECT l.lexeme, coalesce(t.docs, 0) + coalesce(d.docs, 0) AS docs,
           coalesce(t.tokens, 0) + coalesce(d.tokens, 0) AS tokens
    FROM (SELECT lexeme FROM kw_lexemes UNION SELECT ''::text) l
    CROSS JOIN LATERAL (
      SELECT sum(t.docs)::float8 AS docs, sum(t.tokens)::float8 AS tokens FROM term_counts t
      WHERE t.corpus = 'memories' AND t.scope = ANY($4::uuid[]) AND t.lexeme = l.lexeme
    ) t
    CROSS JOIN LATERAL (
      SELECT sum(d.docs)::float8 AS docs, sum(d.tokens)::float8 AS tokens FROM term_count_deltas d
      WHERE d.corpus = 'memories' AND d.scope = ANY($4::uuid[]) AND d.lexeme = l.lexeme
    ) d
  ),
  kw_corpus AS MATERIALIZED (
    SELECT greatest(coalesce(max(docs) FILTER (WHERE lexeme = ''), 0), 1) AS n,
           greatest(coalesce(max(tokens / nullif(docs, 0)) FILTER (WHERE lexeme = ''), 1), 1) AS avgdl
    FROM kw_counts
  ),
  kw_terms AS MATERIALIZED (
    SELECT l.lexeme, f.df, ('''' || replace(replace(l.lexeme, '\', '\\'), '''', '''''') || '''')::tsquery AS q,
           ln(1 + (k.n - f.df + 0.5) / (f.df + 0.5))
             * CASE WHEN l.lexeme IN (SELECT lexeme FROM kw_entities) THEN 1.5 ELSE 1 END AS idf
    FROM kw_lexemes l LEFT JOIN kw_counts c ON c.lexeme = l.lexeme CROSS JOIN kw_corpus k
    CROSS JOIN LATERAL (SELECT least(greatest(coalesce(c.docs, 0), 0), k.n) AS df) f
    ORDER BY f.df, l.lexeme
    LIMIT $5
  ),
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
    SELECT CASE WHEN min(df) <= $6 THEN 0
                ELSE coalesce(min(i) FILTER (WHERE expected <= $6), max(i)) END AS j
    FROM kw_ranked
  ),
  kw_query AS (
    SELECT (CASE WHEN r.j = 0 THEN string_agg(t.q::text, ' | ') FILTER (WHERE t.running <= $6 OR t.i = 1)
                 ELSE '(' || string_agg(t.q::text, ' & ') FILTER (WHERE t.i <= r.j) || ')'
                      || coalesce(' & (' || string_agg(t.q::text, ' | ') FILTER (WHERE t.i > r.j) || ')', '')
            END)::tsquery AS q,
           -- With required terms the estimate can be far off (words of one question occur together:
           -- in a corpus of 1M rows 15,807 held all of a question's required terms against 1,500
           -- expected), so the rows read stop at the budget, in storage order; none: no bound needed.
           CASE WHEN r.j > 0 THEN $6::bigint END AS cap,
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
    SELECT c.id, c.importance, c.confidence, c.pinned, c.created_at, c.tsv_tokens, c.tsv || ''::tsvector AS tsv
    FROM memories c, kw_query
    WHERE c.tsv @@ kw_query.q AND c.deleted_at IS NULL AND (c.project_id = ANY($1::uuid[]) OR c.project_id IS NULL) AND c.archived_at IS NULL AND c.superseded_by IS NULL
    LIMIT (SELECT cap FROM kw_query)
  ),
  kw_scored AS (
    SELECT c.id, c.importance, c.confidence, c.pinned, c.created_at,
           (SELECT sum(t.idf * f.tf * 3 / (f.tf + 2 * (0 + 1 * c.tsv_tokens / k.avgdl)))
            FROM kw_terms t CROSS JOIN LATERAL (SELECT greatest(1, round(1 / (1.6449340668482264 - ts_rank('{1,1,1,1}', c.tsv, t.q, 0) * 1.6449340668482264) - 0.5)) AS tf) f
            WHERE c.tsv @@ t.q) AS score
    FROM (SELECT * FROM kw_matched
          UNION ALL
          -- Values of one-row subqueries (computed once, before the scan): unless the required terms
          -- gave less than a page the scan is never started; when it runs its term is the index condition.
          (SELECT c.id, c.importance, c.confidence, c.pinned, c.created_at, c.tsv_tokens, c.tsv || ''::tsvector AS tsv
           FROM memories c
           WHERE (SELECT fallback IS NOT NULL FROM kw_query) AND (SELECT count(*) FROM kw_matched) < $7
             AND c.tsv @@ (SELECT fallback FROM kw_query) AND NOT (c.tsv @@ (SELECT q FROM kw_query))
             AND c.deleted_at IS NULL AND (c.project_id = ANY($1::uuid[]) OR c.project_id IS NULL) AND c.archived_at IS NULL AND c.superseded_by IS NULL
           LIMIT $7)) c, kw_corpus k
  ),
  kw_out AS (
    SELECT 'keyword'::text AS list, s.id, s.score::float8 AS score, s.importance, s.confidence, s.pinned, s.created_at
    FROM kw_scored s
    ORDER BY s.score DESC, s.id
    LIMIT $7
  ),
  vec_out AS (
    SELECT 'semantic'::text AS list, c.id, (1 - (c.embedding::vector(768) <=> $8::vector(768)))::float8 AS score,
           c.importance, c.confidence, c.pinned, c.created_at
    FROM memories c
    WHERE c.embedding_model = 'nomic-embed-text' AND c.deleted_at IS NULL AND (c.project_id = ANY($1::uuid[]) OR c.project_id IS NULL) AND c.archived_at IS NULL AND c.superseded_by IS NULL
    ORDER BY c.embedding::vector(768) <=> $8::vector(768)
    LIMIT $9
  ) SELECT * FROM kw_out UNION ALL SELECT * FROM vec_out;
