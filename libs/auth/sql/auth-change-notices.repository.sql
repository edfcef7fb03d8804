-- The statements of libs/auth/src/auth-change-notices.repository.ts,
-- as tools/sql-snapshots records them: each method called with its @SqlSnapshot examples on a
-- migrated database, in a transaction rolled back. Placeholders carry the types PostgreSQL infers
-- for them, never values. Generated: `npm run snapshots` rewrites this file.

-- AuthChangeNoticesRepository.listen, no snapshot: sends `LISTEN cairn_auth_change` on a connection
--   of its own, outside the pool: notices never reach pooled connections

-- AuthChangeNoticesRepository.probe
-- parameters: $1 text
SELECT cairn.auth_change_probe($1);

-- AuthChangeNoticesRepository.mark
-- parameters: $1 text, $2 text
SELECT pg_notify($1, $2);
