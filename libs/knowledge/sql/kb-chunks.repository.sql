-- The statements of libs/knowledge/src/kb-chunks.repository.ts,
-- as tools/sql-snapshots records them: each method called with its @SqlSnapshot examples on a
-- migrated database, in a transaction rolled back. Placeholders carry the types PostgreSQL infers
-- for them, never values. Generated: `npm run snapshots` rewrites this file.

-- KbChunksRepository.insertMany
-- parameters: $1 uuid[], $2 uuid[], $3 uuid[], $4 integer[], $5 text[], $6 text[]
INSERT INTO kb_chunks (id, document_id, project_id, ordinal, content, content_hash)
SELECT * FROM unnest($1::uuid[], $2::uuid[], $3::uuid[], $4::int[], $5::text[], $6::text[]);

-- KbChunksRepository.corpus, no snapshot: returns the corpus as a value: search renders its
--   condition inside the ranking statements (libs/search/sql, libs/knowledge/sql/kb-corpus.sql)

-- KbChunksRepository.hydrate
-- parameters: $1 uuid[]
SELECT c.id AS "chunkId", c.document_id AS "documentId", c.project_id AS "projectId", d.source, d.title,
       d.source_type AS "sourceType", d.retention_tier AS "retentionTier", c.ordinal, c.content AS text
FROM kb_chunks c
JOIN kb_documents d ON d.id = c.document_id
WHERE c.id = ANY($1::uuid[]);

-- KbChunksRepository.ofDocument
-- parameters: $1 uuid, $2 uuid, $3 integer, $4 bigint
SELECT c.id, c.ordinal, c.content AS text FROM kb_chunks c
WHERE c.project_id = $1 AND c.document_id = $2 AND c.ordinal > $3
ORDER BY c.ordinal LIMIT $4;

-- KbChunksRepository.pending
-- parameters: $1 uuid[], $2 text
SELECT c.id, c.content AS text, c.content_hash AS "contentHash"
FROM kb_chunks c
WHERE c.id = ANY($1::uuid[]) AND EXISTS (SELECT 1 FROM kb_documents d WHERE d.id = c.document_id AND d.expires_at > now())
  AND (c.embedding_model IS DISTINCT FROM $2 OR c.embedded_hash IS DISTINCT FROM c.content_hash)
ORDER BY c.document_id, c.ordinal;

-- KbChunksRepository.store
-- parameters: $1 uuid[], $2 text[], $3 text[], $4 text
WITH updated AS (
  UPDATE kb_chunks c
  SET embedding = v.literal::vector, embedding_model = $4, embedded_hash = v.content_hash, embedded_at = now()
  FROM unnest($1::uuid[], $2::text[], $3::text[]) AS v(id, content_hash, literal)
  WHERE c.id = v.id AND c.content_hash = v.content_hash
  RETURNING 1)
SELECT count(*)::int AS n FROM updated;

-- KbChunksRepository.missing
-- parameters: $1 text, $2 uuid, $3 double precision, $4 bigint
SELECT c.id FROM kb_chunks c
WHERE c.embedding_model IS DISTINCT FROM $1 AND EXISTS (SELECT 1 FROM kb_documents d WHERE d.id = c.document_id AND d.expires_at > now())
  AND ($2::uuid IS NULL OR c.id > $2::uuid) AND c.created_at < now() - make_interval(secs => $3)
ORDER BY c.id LIMIT $4;
