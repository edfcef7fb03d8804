-- The statements of libs/search/src/term-statistics.repository.ts,
-- as tools/sql-snapshots records them: each method called with its @SqlSnapshot examples on a
-- migrated database, in a transaction rolled back. Placeholders carry the types PostgreSQL infers
-- for them, never values. Generated: `npm run snapshots` rewrites this file.

-- TermStatisticsRepository.foldBatch
SELECT pg_try_advisory_xact_lock(hashtext(current_schema() || ':term-statistics')) AS locked;

-- parameters: $1 bigint
WITH moved AS (
  DELETE FROM term_count_deltas
  WHERE ctid = ANY(ARRAY(SELECT ctid FROM term_count_deltas LIMIT $1))
  RETURNING corpus, scope, lexeme, docs, tokens
),
folded AS (
  INSERT INTO term_counts AS t (corpus, scope, lexeme, docs, tokens)
  SELECT corpus, scope, lexeme, sum(docs)::int, sum(tokens)::bigint FROM moved GROUP BY corpus, scope, lexeme
  ORDER BY corpus, scope, lexeme
  ON CONFLICT (corpus, scope, lexeme) DO UPDATE SET docs = t.docs + excluded.docs, tokens = t.tokens + excluded.tokens
  RETURNING 1
)
SELECT (SELECT count(*) FROM moved)::int AS moved, (SELECT count(*) FROM folded)::int AS folded;

DELETE FROM term_counts WHERE docs <= 0 AND lexeme <> '';

-- TermStatisticsRepository.vacuum
SET statement_timeout = 0;

VACUUM (ANALYZE) "t_example".term_count_deltas, "t_example".term_counts;

RESET statement_timeout;
