-- The statements of libs/knowledge/src/kb-fetch-budget.repository.ts,
-- as tools/sql-snapshots records them: each method called with its @SqlSnapshot examples on a
-- migrated database, in a transaction rolled back. Placeholders carry the types PostgreSQL infers
-- for them, never values. Generated: `npm run snapshots` rewrites this file.

-- KbFetchBudgetRepository.take
-- parameters: $1 uuid
DELETE FROM kb_fetch_budget WHERE project_id = $1 AND day < (now() AT TIME ZONE 'UTC')::date;

-- parameters: $1 uuid, $2 integer
INSERT INTO kb_fetch_budget AS b (project_id, day, fetches)
VALUES ($1, (now() AT TIME ZONE 'UTC')::date, 1)
ON CONFLICT (project_id, day) DO UPDATE SET fetches = b.fetches + 1 WHERE b.fetches < $2
RETURNING b.fetches, to_char(b.day, 'YYYY-MM-DD') AS day;

-- KbFetchBudgetRepository.giveBack
-- parameters: $1 uuid, $2 date
UPDATE kb_fetch_budget SET fetches = fetches - 1 WHERE project_id = $1 AND day = $2::date AND fetches > 0;
