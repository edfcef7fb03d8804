-- The statements of libs/memory/src/memory-embeddings.repository.ts,
-- as tools/sql-snapshots records them: each method called with its @SqlSnapshot examples on a
-- migrated database, in a transaction rolled back. Placeholders carry the types PostgreSQL infers
-- for them, never values. Generated: `npm run snapshots` rewrites this file.

-- MemoryEmbeddingsRepository.pending
-- parameters: $1 uuid[], $2 text
SELECT id, content, keywords, content_hash FROM memories
WHERE id = ANY($1::uuid[]) AND deleted_at IS NULL
  AND (embedding_model IS DISTINCT FROM $2 OR embedded_hash IS DISTINCT FROM content_hash);

-- MemoryEmbeddingsRepository.store
-- parameters: $1 uuid[], $2 text[], $3 text[], $4 text
WITH stored AS (
  UPDATE memories m SET embedding = u.vector::vector, embedding_model = $4, embedded_hash = u.hash, embedded_at = now()
  FROM unnest($1::uuid[], $2::text[], $3::text[]) AS u(id, vector, hash)
  WHERE m.id = u.id AND m.content_hash = u.hash
  RETURNING m.id
)
SELECT id FROM stored;

-- MemoryEmbeddingsRepository.missing
-- parameters: $1 text, $2 uuid, $3 double precision, $4 bigint
SELECT id FROM memories
WHERE deleted_at IS NULL AND (embedding_model IS DISTINCT FROM $1 OR embedded_hash IS DISTINCT FROM content_hash)
  AND ($2::uuid IS NULL OR id > $2::uuid) AND updated_at < now() - make_interval(secs => $3)
ORDER BY id LIMIT $4;
