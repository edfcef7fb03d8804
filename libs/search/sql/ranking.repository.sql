-- The statements of libs/search/src/ranking.repository.ts,
-- as tools/sql-snapshots records them: each method called with its @SqlSnapshot examples on a
-- migrated database, in a transaction rolled back. Placeholders carry the types PostgreSQL infers
-- for them, never values. Generated: `npm run snapshots` rewrites this file.

-- RankingRepository.rank (hybrid: keyword and semantic, HNSW index scan)
-- prepared statement (named by the hash of its text)
-- parameters: $1 uuid[], $2 uuid, $3 text, $4 uuid, $5 uuid, $6 text, $7 text, $8 text, $9 uuid[],
--   $10 bigint, $11 double precision, $12 bigint, $13 vector, $14 bigint
WITH
kw_lexemes AS (
  SELECT DISTINCT u.lexeme FROM unnest(to_tsvector('english', $7)) u
),
kw_entities AS (
  SELECT DISTINCT u.lexeme FROM unnest(to_tsvector('english', $8)) u
),
kw_counts AS MATERIALIZED (
  SELECT l.lexeme, coalesce(t.docs, 0) + coalesce(d.docs, 0) AS docs,
         coalesce(t.tokens, 0) + coalesce(d.tokens, 0) AS tokens
  FROM (SELECT lexeme FROM kw_lexemes UNION SELECT ''::text) l
  CROSS JOIN LATERAL (
    SELECT sum(t.docs)::float8 AS docs, sum(t.tokens)::float8 AS tokens FROM term_counts t
    WHERE t.corpus = 'memories' AND t.scope = ANY($9::uuid[]) AND t.lexeme = l.lexeme
  ) t
  CROSS JOIN LATERAL (
    SELECT sum(d.docs)::float8 AS docs, sum(d.tokens)::float8 AS tokens FROM term_count_deltas d
    WHERE d.corpus = 'memories' AND d.scope = ANY($9::uuid[]) AND d.lexeme = l.lexeme
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
  LIMIT $10
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
  SELECT CASE WHEN min(df) <= $11 THEN 0
              ELSE coalesce(min(i) FILTER (WHERE expected <= $11), max(i)) END AS j
  FROM kw_ranked
),
kw_query AS (
  SELECT (CASE WHEN r.j = 0 THEN string_agg(t.q::text, ' | ') FILTER (WHERE t.running <= $11 OR t.i = 1)
               ELSE '(' || string_agg(t.q::text, ' & ') FILTER (WHERE t.i <= r.j) || ')'
                    || coalesce(' & (' || string_agg(t.q::text, ' | ') FILTER (WHERE t.i > r.j) || ')', '')
          END)::tsquery AS q,
         -- With required terms the estimate can be far off (words of one question occur together:
         -- in a corpus of 1M rows 15,807 held all of a question's required terms against 1,500
         -- expected), so the rows read stop at the budget, in storage order; none: no bound needed.
         CASE WHEN r.j > 0 THEN $11::bigint END AS cap,
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
  WHERE c.tsv @@ kw_query.q AND c.deleted_at IS NULL AND (c.project_id = ANY($1::uuid[]) OR c.scope = 'team') AND (c.scope <> 'private' OR ((c.author_token_id = $4::uuid OR c.author_user_id = $2::uuid OR ($2::uuid IS NULL AND c.author_user_id IS NULL AND c.author_agent_id = $3::text)) IS TRUE) OR EXISTS (SELECT s.permission, 'share' AS via, s.id AS grant_id, s.granted_by_user_id AS by_user_id,
       s.granted_by_agent_id AS by_agent_id, s.granted_by_token_id AS by_token_id, s.created_at AS granted_at
     FROM memory_shares s WHERE s.memory_id = c.id AND (s.grantee_user_id = $5::uuid OR s.grantee_agent_id = $6::text)
     UNION ALL
     SELECT r.permission, 'rule', r.id, r.owner_user_id, r.owner_agent_id, r.owner_token_id, r.created_at
     FROM memory_share_rules r
     WHERE (r.grantee_user_id = $5::uuid OR r.grantee_agent_id = $6::text) AND r.tag = ANY(c.tags) AND (r.project_id IS NULL OR r.project_id = c.project_id) AND ((c.author_token_id = r.owner_token_id OR c.author_user_id = r.owner_user_id OR (r.owner_user_id IS NULL AND c.author_user_id IS NULL AND c.author_agent_id = r.owner_agent_id)) IS TRUE))) AND c.archived_at IS NULL AND c.superseded_by IS NULL
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
         WHERE (SELECT fallback IS NOT NULL FROM kw_query) AND (SELECT count(*) FROM kw_matched) < $12
           AND c.tsv @@ (SELECT fallback FROM kw_query) AND NOT (c.tsv @@ (SELECT q FROM kw_query))
           AND c.deleted_at IS NULL AND (c.project_id = ANY($1::uuid[]) OR c.scope = 'team') AND (c.scope <> 'private' OR ((c.author_token_id = $4::uuid OR c.author_user_id = $2::uuid OR ($2::uuid IS NULL AND c.author_user_id IS NULL AND c.author_agent_id = $3::text)) IS TRUE) OR EXISTS (SELECT s.permission, 'share' AS via, s.id AS grant_id, s.granted_by_user_id AS by_user_id,
       s.granted_by_agent_id AS by_agent_id, s.granted_by_token_id AS by_token_id, s.created_at AS granted_at
     FROM memory_shares s WHERE s.memory_id = c.id AND (s.grantee_user_id = $5::uuid OR s.grantee_agent_id = $6::text)
     UNION ALL
     SELECT r.permission, 'rule', r.id, r.owner_user_id, r.owner_agent_id, r.owner_token_id, r.created_at
     FROM memory_share_rules r
     WHERE (r.grantee_user_id = $5::uuid OR r.grantee_agent_id = $6::text) AND r.tag = ANY(c.tags) AND (r.project_id IS NULL OR r.project_id = c.project_id) AND ((c.author_token_id = r.owner_token_id OR c.author_user_id = r.owner_user_id OR (r.owner_user_id IS NULL AND c.author_user_id IS NULL AND c.author_agent_id = r.owner_agent_id)) IS TRUE))) AND c.archived_at IS NULL AND c.superseded_by IS NULL
         LIMIT $12)) c, kw_corpus k
),
kw_out AS (
  SELECT 'keyword'::text AS list, s.id, s.score::float8 AS score, s.importance, s.confidence, s.pinned, s.created_at
  FROM kw_scored s
  ORDER BY s.score DESC, s.id
  LIMIT $12
),
vec_out AS (
  SELECT 'semantic'::text AS list, c.id, (1 - (c.embedding::vector(768) <=> $13::vector(768)))::float8 AS score,
         c.importance, c.confidence, c.pinned, c.created_at
  FROM memories c
  WHERE c.embedding_model = 'nomic-embed-text' AND c.deleted_at IS NULL AND (c.project_id = ANY($1::uuid[]) OR c.scope = 'team') AND (c.scope <> 'private' OR ((c.author_token_id = $4::uuid OR c.author_user_id = $2::uuid OR ($2::uuid IS NULL AND c.author_user_id IS NULL AND c.author_agent_id = $3::text)) IS TRUE) OR EXISTS (SELECT s.permission, 'share' AS via, s.id AS grant_id, s.granted_by_user_id AS by_user_id,
       s.granted_by_agent_id AS by_agent_id, s.granted_by_token_id AS by_token_id, s.created_at AS granted_at
     FROM memory_shares s WHERE s.memory_id = c.id AND (s.grantee_user_id = $5::uuid OR s.grantee_agent_id = $6::text)
     UNION ALL
     SELECT r.permission, 'rule', r.id, r.owner_user_id, r.owner_agent_id, r.owner_token_id, r.created_at
     FROM memory_share_rules r
     WHERE (r.grantee_user_id = $5::uuid OR r.grantee_agent_id = $6::text) AND r.tag = ANY(c.tags) AND (r.project_id IS NULL OR r.project_id = c.project_id) AND ((c.author_token_id = r.owner_token_id OR c.author_user_id = r.owner_user_id OR (r.owner_user_id IS NULL AND c.author_user_id IS NULL AND c.author_agent_id = r.owner_agent_id)) IS TRUE))) AND c.archived_at IS NULL AND c.superseded_by IS NULL
  ORDER BY c.embedding::vector(768) <=> $13::vector(768)
  LIMIT $14
) SELECT * FROM kw_out UNION ALL SELECT * FROM vec_out;

-- RankingRepository.statement, no snapshot: renders the statement `rank` sends without sending it,
--   for diagnostics (bench EXPLAINs it)

-- RankingRepository.countVectors
SELECT count(*)::int AS n FROM (SELECT 1 FROM memories WHERE embedding_model = 'nomic-embed-text'
LIMIT 20001) s;

-- RankingRepository.datedCandidates (a boost ("last Saturday"): the range widened to where closeness falls to a quarter)
-- parameters: $1 uuid[], $2 uuid, $3 text, $4 uuid, $5 uuid, $6 text, $7 timestamp with time zone,
--   $8 timestamp with time zone, $9 timestamp with time zone, $10 timestamp with time zone, $11 bigint
SELECT p.id FROM ((SELECT m.id, m.occurred_at AS at FROM memories m
  WHERE m.deleted_at IS NULL AND (m.project_id = ANY($1::uuid[]) OR m.scope = 'team') AND (m.scope <> 'private' OR ((m.author_token_id = $4::uuid OR m.author_user_id = $2::uuid OR ($2::uuid IS NULL AND m.author_user_id IS NULL AND m.author_agent_id = $3::text)) IS TRUE) OR EXISTS (SELECT s.permission, 'share' AS via, s.id AS grant_id, s.granted_by_user_id AS by_user_id,
     s.granted_by_agent_id AS by_agent_id, s.granted_by_token_id AS by_token_id, s.created_at AS granted_at
   FROM memory_shares s WHERE s.memory_id = m.id AND (s.grantee_user_id = $5::uuid OR s.grantee_agent_id = $6::text)
   UNION ALL
   SELECT r.permission, 'rule', r.id, r.owner_user_id, r.owner_agent_id, r.owner_token_id, r.created_at
   FROM memory_share_rules r
   WHERE (r.grantee_user_id = $5::uuid OR r.grantee_agent_id = $6::text) AND r.tag = ANY(m.tags) AND (r.project_id IS NULL OR r.project_id = m.project_id) AND ((m.author_token_id = r.owner_token_id OR m.author_user_id = r.owner_user_id OR (r.owner_user_id IS NULL AND m.author_user_id IS NULL AND m.author_agent_id = r.owner_agent_id)) IS TRUE))) AND m.archived_at IS NULL AND m.superseded_by IS NULL AND m.occurred_at >= $7 AND m.occurred_at < $8 AND m.occurred_at >= $9::timestamptz AND m.occurred_at < $10::timestamptz
  ORDER BY m.occurred_at DESC, m.id LIMIT $11)
UNION ALL (SELECT m.id, m.occurred_at AS at FROM memories m
  WHERE m.deleted_at IS NULL AND (m.project_id = ANY($1::uuid[]) OR m.scope = 'team') AND (m.scope <> 'private' OR ((m.author_token_id = $4::uuid OR m.author_user_id = $2::uuid OR ($2::uuid IS NULL AND m.author_user_id IS NULL AND m.author_agent_id = $3::text)) IS TRUE) OR EXISTS (SELECT s.permission, 'share' AS via, s.id AS grant_id, s.granted_by_user_id AS by_user_id,
     s.granted_by_agent_id AS by_agent_id, s.granted_by_token_id AS by_token_id, s.created_at AS granted_at
   FROM memory_shares s WHERE s.memory_id = m.id AND (s.grantee_user_id = $5::uuid OR s.grantee_agent_id = $6::text)
   UNION ALL
   SELECT r.permission, 'rule', r.id, r.owner_user_id, r.owner_agent_id, r.owner_token_id, r.created_at
   FROM memory_share_rules r
   WHERE (r.grantee_user_id = $5::uuid OR r.grantee_agent_id = $6::text) AND r.tag = ANY(m.tags) AND (r.project_id IS NULL OR r.project_id = m.project_id) AND ((m.author_token_id = r.owner_token_id OR m.author_user_id = r.owner_user_id OR (r.owner_user_id IS NULL AND m.author_user_id IS NULL AND m.author_agent_id = r.owner_agent_id)) IS TRUE))) AND m.archived_at IS NULL AND m.superseded_by IS NULL AND m.occurred_at >= $7 AND m.occurred_at < $8 AND m.occurred_at < $9::timestamptz
  ORDER BY m.occurred_at DESC, m.id LIMIT $11)
UNION ALL (SELECT m.id, m.occurred_at AS at FROM memories m
  WHERE m.deleted_at IS NULL AND (m.project_id = ANY($1::uuid[]) OR m.scope = 'team') AND (m.scope <> 'private' OR ((m.author_token_id = $4::uuid OR m.author_user_id = $2::uuid OR ($2::uuid IS NULL AND m.author_user_id IS NULL AND m.author_agent_id = $3::text)) IS TRUE) OR EXISTS (SELECT s.permission, 'share' AS via, s.id AS grant_id, s.granted_by_user_id AS by_user_id,
     s.granted_by_agent_id AS by_agent_id, s.granted_by_token_id AS by_token_id, s.created_at AS granted_at
   FROM memory_shares s WHERE s.memory_id = m.id AND (s.grantee_user_id = $5::uuid OR s.grantee_agent_id = $6::text)
   UNION ALL
   SELECT r.permission, 'rule', r.id, r.owner_user_id, r.owner_agent_id, r.owner_token_id, r.created_at
   FROM memory_share_rules r
   WHERE (r.grantee_user_id = $5::uuid OR r.grantee_agent_id = $6::text) AND r.tag = ANY(m.tags) AND (r.project_id IS NULL OR r.project_id = m.project_id) AND ((m.author_token_id = r.owner_token_id OR m.author_user_id = r.owner_user_id OR (r.owner_user_id IS NULL AND m.author_user_id IS NULL AND m.author_agent_id = r.owner_agent_id)) IS TRUE))) AND m.archived_at IS NULL AND m.superseded_by IS NULL AND m.occurred_at >= $7 AND m.occurred_at < $8 AND m.occurred_at >= $10::timestamptz
  ORDER BY m.occurred_at ASC, m.id LIMIT $11)) p
ORDER BY greatest(interval '0', $9::timestamptz - p.at, p.at - $10::timestamptz), p.at DESC, p.id
LIMIT $11;

-- RankingRepository.datedCandidates (an open range ("before January 2026"))
-- parameters: $1 uuid[], $2 uuid, $3 text, $4 uuid, $5 uuid, $6 text, $7 timestamp with time zone,
--   $8 timestamp with time zone, $9 bigint
SELECT p.id FROM ((SELECT m.id, m.occurred_at AS at FROM memories m
  WHERE m.deleted_at IS NULL AND (m.project_id = ANY($1::uuid[]) OR m.scope = 'team') AND (m.scope <> 'private' OR ((m.author_token_id = $4::uuid OR m.author_user_id = $2::uuid OR ($2::uuid IS NULL AND m.author_user_id IS NULL AND m.author_agent_id = $3::text)) IS TRUE) OR EXISTS (SELECT s.permission, 'share' AS via, s.id AS grant_id, s.granted_by_user_id AS by_user_id,
     s.granted_by_agent_id AS by_agent_id, s.granted_by_token_id AS by_token_id, s.created_at AS granted_at
   FROM memory_shares s WHERE s.memory_id = m.id AND (s.grantee_user_id = $5::uuid OR s.grantee_agent_id = $6::text)
   UNION ALL
   SELECT r.permission, 'rule', r.id, r.owner_user_id, r.owner_agent_id, r.owner_token_id, r.created_at
   FROM memory_share_rules r
   WHERE (r.grantee_user_id = $5::uuid OR r.grantee_agent_id = $6::text) AND r.tag = ANY(m.tags) AND (r.project_id IS NULL OR r.project_id = m.project_id) AND ((m.author_token_id = r.owner_token_id OR m.author_user_id = r.owner_user_id OR (r.owner_user_id IS NULL AND m.author_user_id IS NULL AND m.author_agent_id = r.owner_agent_id)) IS TRUE))) AND m.archived_at IS NULL AND m.superseded_by IS NULL AND m.occurred_at < $7 AND m.occurred_at < $8::timestamptz
  ORDER BY m.occurred_at DESC, m.id LIMIT $9)
UNION ALL (SELECT m.id, m.occurred_at AS at FROM memories m
  WHERE m.deleted_at IS NULL AND (m.project_id = ANY($1::uuid[]) OR m.scope = 'team') AND (m.scope <> 'private' OR ((m.author_token_id = $4::uuid OR m.author_user_id = $2::uuid OR ($2::uuid IS NULL AND m.author_user_id IS NULL AND m.author_agent_id = $3::text)) IS TRUE) OR EXISTS (SELECT s.permission, 'share' AS via, s.id AS grant_id, s.granted_by_user_id AS by_user_id,
     s.granted_by_agent_id AS by_agent_id, s.granted_by_token_id AS by_token_id, s.created_at AS granted_at
   FROM memory_shares s WHERE s.memory_id = m.id AND (s.grantee_user_id = $5::uuid OR s.grantee_agent_id = $6::text)
   UNION ALL
   SELECT r.permission, 'rule', r.id, r.owner_user_id, r.owner_agent_id, r.owner_token_id, r.created_at
   FROM memory_share_rules r
   WHERE (r.grantee_user_id = $5::uuid OR r.grantee_agent_id = $6::text) AND r.tag = ANY(m.tags) AND (r.project_id IS NULL OR r.project_id = m.project_id) AND ((m.author_token_id = r.owner_token_id OR m.author_user_id = r.owner_user_id OR (r.owner_user_id IS NULL AND m.author_user_id IS NULL AND m.author_agent_id = r.owner_agent_id)) IS TRUE))) AND m.archived_at IS NULL AND m.superseded_by IS NULL AND m.occurred_at < $7 AND m.occurred_at >= $8::timestamptz
  ORDER BY m.occurred_at ASC, m.id LIMIT $9)) p
ORDER BY greatest(interval '0', p.at - $8::timestamptz), p.at DESC, p.id
LIMIT $9;

-- RankingRepository.occurredAt
-- parameters: $1 uuid[], $2 uuid, $3 text, $4 uuid, $5 uuid, $6 text, $7 uuid
SELECT c.occurred_at AS at FROM memories c WHERE c.id = $7::uuid AND c.deleted_at IS NULL AND (c.project_id = ANY($1::uuid[]) OR c.scope = 'team') AND (c.scope <> 'private' OR ((c.author_token_id = $4::uuid OR c.author_user_id = $2::uuid OR ($2::uuid IS NULL AND c.author_user_id IS NULL AND c.author_agent_id = $3::text)) IS TRUE) OR EXISTS (SELECT s.permission, 'share' AS via, s.id AS grant_id, s.granted_by_user_id AS by_user_id,
  s.granted_by_agent_id AS by_agent_id, s.granted_by_token_id AS by_token_id, s.created_at AS granted_at
FROM memory_shares s WHERE s.memory_id = c.id AND (s.grantee_user_id = $5::uuid OR s.grantee_agent_id = $6::text)
UNION ALL
SELECT r.permission, 'rule', r.id, r.owner_user_id, r.owner_agent_id, r.owner_token_id, r.created_at
FROM memory_share_rules r
WHERE (r.grantee_user_id = $5::uuid OR r.grantee_agent_id = $6::text) AND r.tag = ANY(c.tags) AND (r.project_id IS NULL OR r.project_id = c.project_id) AND ((c.author_token_id = r.owner_token_id OR c.author_user_id = r.owner_user_id OR (r.owner_user_id IS NULL AND c.author_user_id IS NULL AND c.author_agent_id = r.owner_agent_id)) IS TRUE))) AND c.archived_at IS NULL AND c.superseded_by IS NULL;
