-- The statements of libs/working-memory/src/working-memory.repository.ts,
-- as tools/sql-snapshots records them: each method called with its @SqlSnapshot examples on a
-- migrated database, in a transaction rolled back. Placeholders carry the types PostgreSQL infers
-- for them, never values. Generated: `npm run snapshots` rewrites this file.

-- WorkingMemoryRepository.lockAgent
-- parameters: $1 text, $2 text
SELECT pg_advisory_xact_lock(hashtext('working_memory:' || $1), hashtext($2));

-- WorkingMemoryRepository.upsert
-- parameters: $1 uuid, $2 text, $3 text, $4 text, $5 smallint
INSERT INTO working_memory (project_id, agent_key, key, value, importance, created_at, updated_at)
VALUES ($1, $2, $3, $4, $5, clock_timestamp(), clock_timestamp())
ON CONFLICT (project_id, agent_key, key)
DO UPDATE SET value = excluded.value, importance = excluded.importance, updated_at = excluded.updated_at
RETURNING key, value, importance, created_at AS "createdAt", updated_at AS "updatedAt";

-- WorkingMemoryRepository.count
-- parameters: $1 uuid, $2 text
SELECT count(*)::int AS n FROM working_memory WHERE project_id = $1 AND agent_key = $2;

-- WorkingMemoryRepository.evictionCandidates
-- parameters: $1 uuid, $2 text, $3 text, $4 bigint
SELECT key, value, importance, created_at AS "createdAt", updated_at AS "updatedAt" FROM working_memory
WHERE project_id = $1 AND agent_key = $2 AND key <> $3
ORDER BY importance ASC, updated_at ASC, key ASC
LIMIT $4;

-- WorkingMemoryRepository.list
-- parameters: $1 uuid, $2 text
SELECT key, value, importance, created_at AS "createdAt", updated_at AS "updatedAt" FROM working_memory WHERE project_id = $1 AND agent_key = $2
ORDER BY importance DESC, updated_at DESC, key ASC;

-- WorkingMemoryRepository.delete
-- parameters: $1 uuid, $2 text, $3 text[]
WITH gone AS (
  DELETE FROM working_memory WHERE project_id = $1 AND agent_key = $2 AND key = ANY($3::text[]) RETURNING 1)
SELECT count(*)::int AS n FROM gone;
