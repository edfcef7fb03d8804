-- The statements of libs/memory/src/memory-versions.repository.ts,
-- as tools/sql-snapshots records them: each method called with its @SqlSnapshot examples on a
-- migrated database, in a transaction rolled back. Placeholders carry the types PostgreSQL infers
-- for them, never values. Generated: `npm run snapshots` rewrites this file.

-- MemoryVersionsRepository.record
-- parameters: $1 uuid, $2 integer, $3 jsonb, $4 uuid, $5 text, $6 text
INSERT INTO memory_versions (memory_id, version, snapshot, changed_by_user_id, changed_by_agent_id, change_reason)
VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (memory_id, version) DO NOTHING;

-- MemoryVersionsRepository.sealContent
-- parameters: $1 uuid, $2 text
UPDATE memory_versions SET snapshot = jsonb_set(snapshot, '{content}', to_jsonb($2::text))
WHERE memory_id = $1;

-- MemoryVersionsRepository.history
-- parameters: $1 uuid
SELECT version, snapshot, changed_by_user_id, changed_by_agent_id, change_reason, created_at
FROM memory_versions WHERE memory_id = $1 ORDER BY version DESC;
