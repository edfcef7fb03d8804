-- The statements of libs/code-index/src/code-files.repository.ts,
-- as tools/sql-snapshots records them: each method called with its @SqlSnapshot examples on a
-- migrated database, in a transaction rolled back. Placeholders carry the types PostgreSQL infers
-- for them, never values. Generated: `npm run snapshots` rewrites this file.

-- CodeFilesRepository.manifest
-- parameters: $1 uuid, $2 text, $3 bigint
SELECT path, content_hash AS hash, size FROM code_files
WHERE branch_id = $1 AND ($2::text IS NULL OR path COLLATE "C" > $2::text COLLATE "C")
ORDER BY path COLLATE "C" LIMIT $3;

-- CodeFilesRepository.hashesOf
-- parameters: $1 uuid, $2 text[]
SELECT path, content_hash AS hash FROM code_files WHERE branch_id = $1 AND path = ANY($2::text[]);

-- CodeFilesRepository.replace
-- parameters: $1 uuid, $2 text
DELETE FROM code_files WHERE branch_id = $1 AND path = $2;

-- parameters: $1 uuid, $2 uuid, $3 uuid, $4 text, $5 text, $6 integer, $7 integer, $8 text, $9 text,
--   $10 text, $11 text
INSERT INTO code_files (id, branch_id, project_id, path, content_hash, size, line_count, language, content,
                        indexed_commit, parse_error)
VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11);

-- CodeFilesRepository.remove
-- parameters: $1 uuid, $2 text[]
WITH removed AS (DELETE FROM code_files WHERE branch_id = $1 AND path = ANY($2::text[]) RETURNING 1)
SELECT count(*)::int AS n FROM removed;

-- CodeFilesRepository.outline
-- parameters: $1 uuid, $2 bigint
SELECT f.path, f.language, f.size, f.line_count AS "lineCount",
       coalesce(s.symbols, 0) AS symbols, coalesce(s.exported, 0) AS exported,
       coalesce(r.files, 0) AS "referencedBy"
FROM code_files f
LEFT JOIN LATERAL (
  SELECT count(*)::int AS symbols, count(*) FILTER (WHERE exported)::int AS exported
  FROM code_symbols WHERE file_id = f.id) s ON true
LEFT JOIN LATERAL (
  SELECT count(DISTINCT ref.file_id)::int AS files FROM code_references ref
  WHERE ref.branch_id = f.branch_id AND ref.file_id <> f.id
    AND ref.name IN (SELECT name FROM code_symbols WHERE file_id = f.id AND exported)) r ON true
WHERE f.branch_id = $1
ORDER BY f.path COLLATE "C" LIMIT $2;

-- CodeFilesRepository.texts
-- parameters: $1 uuid, $2 text[]
SELECT path, content, content_hash AS "contentHash", indexed_commit AS commit
FROM code_files WHERE branch_id = $1 AND path = ANY($2::text[]);
