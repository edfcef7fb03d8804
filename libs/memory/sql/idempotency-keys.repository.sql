-- The statements of libs/memory/src/idempotency-keys.repository.ts,
-- as tools/sql-snapshots records them: each method called with its @SqlSnapshot examples on a
-- migrated database, in a transaction rolled back. Placeholders carry the types PostgreSQL infers
-- for them, never values. Generated: `npm run snapshots` rewrites this file.

-- IdempotencyKeysRepository.claim (a new key)
-- parameters: $1 uuid, $2 text, $3 text, $4 text, $5 uuid
INSERT INTO memory_idempotency_keys (project_id, token_id, key, payload_digest, memory_id)
VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING RETURNING memory_id;

-- IdempotencyKeysRepository.claim (a key claimed before)
-- parameters: $1 uuid, $2 text, $3 text, $4 text, $5 uuid
INSERT INTO memory_idempotency_keys (project_id, token_id, key, payload_digest, memory_id)
VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING RETURNING memory_id;

-- parameters: $1 uuid, $2 text, $3 text
SELECT memory_id, payload_digest FROM memory_idempotency_keys
WHERE project_id = $1 AND token_id = $2 AND key = $3;

-- IdempotencyKeysRepository.prune
-- parameters: $1 timestamp with time zone
WITH gone AS (DELETE FROM memory_idempotency_keys WHERE created_at < $1 RETURNING 1)
SELECT count(*) AS n FROM gone;
