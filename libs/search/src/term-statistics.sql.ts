/** Deltas folded per transaction: bounded work and lock time whatever the backlog. */
export const FOLD_BATCH = 50_000;

/**
 * Moves up to `$1` appended deltas into the totals in one statement: the deltas deleted are
 * exactly the ones summed (rows appended meanwhile stay for the next fold), and a reader's
 * snapshot sees them either as deltas or as totals, never both or neither.
 */
export const FOLD_DELTAS_SQL = `
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
  SELECT (SELECT count(*) FROM moved)::int AS moved, (SELECT count(*) FROM folded)::int AS folded`;

/** Lexemes no live row holds any more (the row count under '' stays, even at zero). */
export const DROP_EMPTY_SQL = `DELETE FROM term_counts WHERE docs <= 0 AND lexeme <> ''`;

/** One folder per tenant at a time; another one finding it busy skips its turn. */
export const FOLD_LOCK_SQL = `SELECT pg_try_advisory_xact_lock(hashtext(current_schema() || ':term-statistics')) AS locked`;
