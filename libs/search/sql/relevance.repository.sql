-- The statements of libs/search/src/relevance.repository.ts,
-- as tools/sql-snapshots records them: each method called with its @SqlSnapshot examples on a
-- migrated database, in a transaction rolled back. Placeholders carry the types PostgreSQL infers
-- for them, never values. Generated: `npm run snapshots` rewrites this file.

-- RelevanceRepository.signals (coverage and cosine (a search with a vector))
-- prepared statement (named by the hash of its text)
-- parameters: $1 uuid[], $2 uuid, $3 text, $4 uuid, $5 uuid, $6 text, $7 uuid[], $8 text, $9 text,
--   $10 uuid[], $11 bigint, $12 vector
WITH
kw_lexemes AS (
  SELECT DISTINCT u.lexeme FROM unnest(to_tsvector('english', $8)) u
),
kw_entities AS (
  SELECT DISTINCT u.lexeme FROM unnest(to_tsvector('english', $9)) u
),
kw_counts AS MATERIALIZED (
  SELECT l.lexeme, coalesce(t.docs, 0) + coalesce(d.docs, 0) AS docs,
         coalesce(t.tokens, 0) + coalesce(d.tokens, 0) AS tokens
  FROM (SELECT lexeme FROM kw_lexemes UNION SELECT ''::text) l
  CROSS JOIN LATERAL (
    SELECT sum(t.docs)::float8 AS docs, sum(t.tokens)::float8 AS tokens FROM term_counts t
    WHERE t.corpus = 'memories' AND t.scope = ANY($10::uuid[]) AND t.lexeme = l.lexeme
  ) t
  CROSS JOIN LATERAL (
    SELECT sum(d.docs)::float8 AS docs, sum(d.tokens)::float8 AS tokens FROM term_count_deltas d
    WHERE d.corpus = 'memories' AND d.scope = ANY($10::uuid[]) AND d.lexeme = l.lexeme
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
  LIMIT $11
)
SELECT c.id,
       coalesce((SELECT sum(t.idf) FILTER (WHERE c.tsv @@ t.q) / nullif(sum(t.idf), 0) FROM kw_terms t), 0)::float8
         AS coverage,
       CASE WHEN c.embedding_model = 'nomic-embed-text'
           THEN (1 - (c.embedding::vector(768) <=> $12::vector(768)))::float8 END AS cosine
FROM memories c
WHERE c.id = ANY($7::uuid[]) AND c.deleted_at IS NULL AND (c.project_id = ANY($1::uuid[]) OR c.scope = 'team') AND (c.scope <> 'private' OR ((c.author_token_id = $4::uuid OR c.author_user_id = $2::uuid OR ($2::uuid IS NULL AND c.author_user_id IS NULL AND c.author_agent_id = $3::text)) IS TRUE) OR EXISTS (SELECT s.permission, 'share' AS via, s.id AS grant_id, s.granted_by_user_id AS by_user_id,
       s.granted_by_agent_id AS by_agent_id, s.granted_by_token_id AS by_token_id, s.created_at AS granted_at
     FROM memory_shares s WHERE s.memory_id = c.id AND (s.grantee_user_id = $5::uuid OR s.grantee_agent_id = $6::text)
     UNION ALL
     SELECT r.permission, 'rule', r.id, r.owner_user_id, r.owner_agent_id, r.owner_token_id, r.created_at
     FROM memory_share_rules r
     WHERE (r.grantee_user_id = $5::uuid OR r.grantee_agent_id = $6::text) AND r.tag = ANY(c.tags) AND (r.project_id IS NULL OR r.project_id = c.project_id) AND ((c.author_token_id = r.owner_token_id OR c.author_user_id = r.owner_user_id OR (r.owner_user_id IS NULL AND c.author_user_id IS NULL AND c.author_agent_id = r.owner_agent_id)) IS TRUE))) AND c.archived_at IS NULL AND c.superseded_by IS NULL;

-- RelevanceRepository.signals (coverage only (a keyword search))
-- prepared statement (named by the hash of its text)
-- parameters: $1 uuid[], $2 uuid, $3 text, $4 uuid, $5 uuid, $6 text, $7 uuid[], $8 text, $9 text,
--   $10 uuid[], $11 bigint
WITH
kw_lexemes AS (
  SELECT DISTINCT u.lexeme FROM unnest(to_tsvector('english', $8)) u
),
kw_entities AS (
  SELECT DISTINCT u.lexeme FROM unnest(to_tsvector('english', $9)) u
),
kw_counts AS MATERIALIZED (
  SELECT l.lexeme, coalesce(t.docs, 0) + coalesce(d.docs, 0) AS docs,
         coalesce(t.tokens, 0) + coalesce(d.tokens, 0) AS tokens
  FROM (SELECT lexeme FROM kw_lexemes UNION SELECT ''::text) l
  CROSS JOIN LATERAL (
    SELECT sum(t.docs)::float8 AS docs, sum(t.tokens)::float8 AS tokens FROM term_counts t
    WHERE t.corpus = 'memories' AND t.scope = ANY($10::uuid[]) AND t.lexeme = l.lexeme
  ) t
  CROSS JOIN LATERAL (
    SELECT sum(d.docs)::float8 AS docs, sum(d.tokens)::float8 AS tokens FROM term_count_deltas d
    WHERE d.corpus = 'memories' AND d.scope = ANY($10::uuid[]) AND d.lexeme = l.lexeme
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
  LIMIT $11
)
SELECT c.id,
       coalesce((SELECT sum(t.idf) FILTER (WHERE c.tsv @@ t.q) / nullif(sum(t.idf), 0) FROM kw_terms t), 0)::float8
         AS coverage,
       NULL::float8 AS cosine
FROM memories c
WHERE c.id = ANY($7::uuid[]) AND c.deleted_at IS NULL AND (c.project_id = ANY($1::uuid[]) OR c.scope = 'team') AND (c.scope <> 'private' OR ((c.author_token_id = $4::uuid OR c.author_user_id = $2::uuid OR ($2::uuid IS NULL AND c.author_user_id IS NULL AND c.author_agent_id = $3::text)) IS TRUE) OR EXISTS (SELECT s.permission, 'share' AS via, s.id AS grant_id, s.granted_by_user_id AS by_user_id,
       s.granted_by_agent_id AS by_agent_id, s.granted_by_token_id AS by_token_id, s.created_at AS granted_at
     FROM memory_shares s WHERE s.memory_id = c.id AND (s.grantee_user_id = $5::uuid OR s.grantee_agent_id = $6::text)
     UNION ALL
     SELECT r.permission, 'rule', r.id, r.owner_user_id, r.owner_agent_id, r.owner_token_id, r.created_at
     FROM memory_share_rules r
     WHERE (r.grantee_user_id = $5::uuid OR r.grantee_agent_id = $6::text) AND r.tag = ANY(c.tags) AND (r.project_id IS NULL OR r.project_id = c.project_id) AND ((c.author_token_id = r.owner_token_id OR c.author_user_id = r.owner_user_id OR (r.owner_user_id IS NULL AND c.author_user_id IS NULL AND c.author_agent_id = r.owner_agent_id)) IS TRUE))) AND c.archived_at IS NULL AND c.superseded_by IS NULL;
