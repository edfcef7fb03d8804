-- The statements of libs/memory/src/memory-hygiene.repository.ts,
-- as tools/sql-snapshots records them: each method called with its @SqlSnapshot examples on a
-- migrated database, in a transaction rolled back. Placeholders carry the types PostgreSQL infers
-- for them, never values. Generated: `npm run snapshots` rewrites this file.

-- MemoryHygieneRepository.decay
-- parameters: $1 real, $2 real, $3 uuid[], $4 integer
WITH decayed AS (
  UPDATE memories m SET confidence = greatest($1::real, m.confidence * $2::real)
  WHERE m.project_id = ANY($3::uuid[]) AND m.deleted_at IS NULL AND m.archived_at IS NULL AND NOT m.pinned
    AND m.confidence > $1::real AND m.confidence * $2::real < m.confidence
    AND coalesce(m.last_accessed_at, m.created_at) < now() - make_interval(days => $4::int)
  RETURNING 1
)
SELECT count(*)::int AS n FROM decayed;

-- MemoryHygieneRepository.prune (dry run)
-- parameters: $1 uuid[], $2 real, $3 integer, $4 bigint
SELECT m.id FROM memories m WHERE m.project_id = ANY($1::uuid[]) AND m.deleted_at IS NULL AND m.archived_at IS NULL AND NOT m.pinned
AND m.confidence <= $2::real AND coalesce(m.last_accessed_at, m.created_at) < now() - make_interval(days => $3::int)
ORDER BY coalesce(m.last_accessed_at, m.created_at), m.id LIMIT $4;

-- MemoryHygieneRepository.prune (archiving)
-- parameters: $1 uuid[], $2 real, $3 integer, $4 bigint
WITH archived AS (
     UPDATE memories m SET archived_at = now(), updated_at = now(), change_xid = pg_current_xact_id()
     WHERE m.id IN (SELECT m.id FROM memories m WHERE m.project_id = ANY($1::uuid[]) AND m.deleted_at IS NULL AND m.archived_at IS NULL AND NOT m.pinned
AND m.confidence <= $2::real AND coalesce(m.last_accessed_at, m.created_at) < now() - make_interval(days => $3::int)
ORDER BY coalesce(m.last_accessed_at, m.created_at), m.id LIMIT $4) AND m.project_id = ANY($1::uuid[]) AND m.deleted_at IS NULL AND m.archived_at IS NULL AND NOT m.pinned
AND m.confidence <= $2::real AND coalesce(m.last_accessed_at, m.created_at) < now() - make_interval(days => $3::int)
     RETURNING m.id
   )
   SELECT id FROM archived;

-- MemoryHygieneRepository.restore
-- parameters: $1 uuid
UPDATE memories SET archived_at = NULL, last_accessed_at = now(), updated_at = now(),
  change_xid = pg_current_xact_id()
WHERE id = $1 AND archived_at IS NOT NULL;

-- MemoryHygieneRepository.lockForUpdate
-- parameters: $1 uuid[]
SELECT id FROM memories WHERE id = ANY($1::uuid[]) ORDER BY id FOR UPDATE;
