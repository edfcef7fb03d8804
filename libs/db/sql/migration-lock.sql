-- Migration advisory lock: held by `npm run migrate` (SchemaMigrationService) around every control and tenant
-- migration, on a dedicated connection (withAdvisoryLock, libs/db/src/advisory-lock.repository.ts).
-- $1 = LOCK_NAMESPACE (1128352082, "CAIR"), $2 = MIGRATION_LOCK_ID (1).

-- tryLock: answers at once whether another run holds the lock
SELECT pg_try_advisory_lock($1, $2) AS locked;

-- lock: only when tryLock said no; waits for the other run to finish
SELECT pg_advisory_lock($1, $2);

-- unlock: after the run, success or failure
SELECT pg_advisory_unlock($1, $2);
