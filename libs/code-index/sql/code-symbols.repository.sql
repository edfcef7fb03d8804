-- The statements of libs/code-index/src/code-symbols.repository.ts,
-- as tools/sql-snapshots records them: each method called with its @SqlSnapshot examples on a
-- migrated database, in a transaction rolled back. Placeholders carry the types PostgreSQL infers
-- for them, never values. Generated: `npm run snapshots` rewrites this file.

-- CodeSymbolsRepository.insert
-- parameters: $1 uuid, $2 uuid, $3 text[], $4 text[], $5 integer[], $6 integer[], $7 text[], $8 text[],
--   $9 boolean[]
INSERT INTO code_symbols (id, file_id, branch_id, name, kind, start_line, end_line, signature, container, exported)
SELECT gen_random_uuid(), $1, $2, * FROM unnest($3::text[], $4::text[], $5::int[], $6::int[], $7::text[], $8::text[], $9::bool[]);

-- parameters: $1 uuid, $2 uuid, $3 text[], $4 integer[]
INSERT INTO code_references (file_id, branch_id, name, line)
SELECT $1, $2, * FROM unnest($3::text[], $4::int[]);

-- CodeSymbolsRepository.find
-- parameters: $1 uuid, $2 text, $3 text[], $4 boolean, $5 bigint
SELECT * FROM (
       SELECT s.name, s.kind, f.path, s.start_line AS "startLine", s.end_line AS "endLine", s.signature,
s.container, s.exported, f.content_hash AS hash, f.indexed_commit AS commit,
              (CASE WHEN lower(s.name) = $2 THEN 1.0
                   WHEN $4 AND strpos(lower(s.name), $2) > 0 THEN 0.5 + 0.4 * length($2)::float / length(s.name)
                   ELSE 0.8 * public.similarity(lower(s.name), $2) END)::float8 AS score
       FROM code_symbols s JOIN code_files f ON f.id = s.file_id
       WHERE s.branch_id = $1
         AND ($3::text[] IS NULL OR s.kind = ANY($3::text[]))
         AND (lower(s.name) = $2 OR ($4 AND (strpos(lower(s.name), $2) > 0 OR lower(s.name) OPERATOR(public.%) $2)))
     ) hit
     ORDER BY score DESC, exported DESC, length(name), path COLLATE "C", "startLine"
     LIMIT $5;

-- CodeSymbolsRepository.references
-- parameters: $1 uuid, $2 text, $3 bigint
SELECT f.path, r.line, f.content_hash AS hash,
       left(btrim(split_part(f.content, E'\n', r.line)), 200) AS text
FROM code_references r JOIN code_files f ON f.id = r.file_id
WHERE r.branch_id = $1 AND r.name = $2
ORDER BY f.path COLLATE "C", r.line LIMIT $3;

-- CodeSymbolsRepository.ofFile
-- parameters: $1 uuid, $2 text
SELECT s.name, s.kind, f.path, s.start_line AS "startLine", s.end_line AS "endLine", s.signature,
s.container, s.exported, f.content_hash AS hash, f.indexed_commit AS commit, 1::float8 AS score FROM code_symbols s JOIN code_files f ON f.id = s.file_id
     WHERE f.branch_id = $1 AND f.path = $2 ORDER BY s.start_line;
