-- The statements of libs/memory/src/memory-relations.repository.ts,
-- as tools/sql-snapshots records them: each method called with its @SqlSnapshot examples on a
-- migrated database, in a transaction rolled back. Placeholders carry the types PostgreSQL infers
-- for them, never values. Generated: `npm run snapshots` rewrites this file.

-- MemoryRelationsRepository.link
-- parameters: $1 uuid, $2 uuid, $3 uuid, $4 text, $5 text, $6 uuid, $7 text
WITH inserted AS (
  INSERT INTO memory_relations (id, from_id, to_id, type, note, created_by_user_id, created_by_agent_id)
  VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (from_id, to_id, type) DO NOTHING RETURNING *
)
SELECT * FROM inserted
UNION ALL SELECT * FROM memory_relations WHERE from_id = $2 AND to_id = $3 AND type = $4
LIMIT 1;

-- MemoryRelationsRepository.touching
-- parameters: $1 uuid, $2 text
SELECT * FROM memory_relations WHERE (from_id = $1 OR to_id = $1) AND ($2::text IS NULL OR type = $2)
ORDER BY created_at;

-- MemoryRelationsRepository.forMemories
-- parameters: $1 uuid[]
SELECT * FROM memory_relations WHERE from_id = ANY($1::uuid[]) ORDER BY from_id, created_at;
