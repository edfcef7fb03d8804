-- The statements of libs/code-index/src/code-chunks.repository.ts,
-- as tools/sql-snapshots records them: each method called with its @SqlSnapshot examples on a
-- migrated database, in a transaction rolled back. Placeholders carry the types PostgreSQL infers
-- for them, never values. Generated: `npm run snapshots` rewrites this file.

-- CodeChunksRepository.insert
-- parameters: $1 uuid, $2 uuid, $3 uuid, $4 uuid[], $5 integer[], $6 integer[], $7 integer[], $8 text[],
--   $9 text[], $10 text[]
INSERT INTO code_chunks (id, file_id, branch_id, project_id, ordinal, start_line, end_line, content, search_text, content_hash)
SELECT u.id, $1, $2, $3, u.ordinal, u.start_line, u.end_line, u.content, u.search_text, u.content_hash
FROM unnest($4::uuid[], $5::int[], $6::int[], $7::int[], $8::text[], $9::text[], $10::text[])
  AS u(id, ordinal, start_line, end_line, content, search_text, content_hash);

-- CodeChunksRepository.corpus, no snapshot: returns the corpus as a value: search renders its
--   condition inside the ranking statements (libs/search/sql)

-- CodeChunksRepository.hydrate
-- parameters: $1 uuid[]
SELECT c.id AS "chunkId", f.path, f.language, c.start_line AS "startLine", c.end_line AS "endLine",
       c.content AS text, f.content_hash AS hash, f.indexed_commit AS commit
FROM code_chunks c JOIN code_files f ON f.id = c.file_id
WHERE c.id = ANY($1::uuid[]);

-- CodeChunksRepository.pending
-- parameters: $1 uuid[], $2 text
SELECT c.id, c.content AS text, c.content_hash AS "contentHash" FROM code_chunks c
WHERE c.id = ANY($1::uuid[])
  AND (c.embedding_model IS DISTINCT FROM $2 OR c.embedded_hash IS DISTINCT FROM c.content_hash)
ORDER BY c.file_id, c.ordinal;

-- CodeChunksRepository.store
-- parameters: $1 uuid[], $2 text[], $3 text[], $4 text
WITH updated AS (
  UPDATE code_chunks c
  SET embedding = v.literal::vector, embedding_model = $4, embedded_hash = v.content_hash, embedded_at = now()
  FROM unnest($1::uuid[], $2::text[], $3::text[]) AS v(id, content_hash, literal)
  WHERE c.id = v.id AND c.content_hash = v.content_hash
  RETURNING 1)
SELECT count(*)::int AS n FROM updated;

-- CodeChunksRepository.missing
-- parameters: $1 text, $2 uuid, $3 double precision, $4 bigint
SELECT c.id FROM code_chunks c
WHERE c.embedding_model IS DISTINCT FROM $1
  AND ($2::uuid IS NULL OR c.id > $2::uuid) AND c.created_at < now() - make_interval(secs => $3)
ORDER BY c.id LIMIT $4;
