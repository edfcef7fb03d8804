-- The statements of libs/memory-hygiene/src/duplicate-scan.repository.ts,
-- as tools/sql-snapshots records them: each method called with its @SqlSnapshot examples on a
-- migrated database, in a transaction rolled back. Placeholders carry the types PostgreSQL infers
-- for them, never values. Generated: `npm run snapshots` rewrites this file.

-- DuplicateScanRepository.replace
-- parameters: $1 uuid
DELETE FROM memory_duplicate_candidates WHERE project_id = $1;

-- parameters: $1 uuid, $2 uuid[], $3 uuid[], $4 real[], $5 text[]
INSERT INTO memory_duplicate_candidates (project_id, a, b, similarity, reason)
SELECT $1, u.a, u.b, u.similarity, u.reason
FROM unnest($2::uuid[], $3::uuid[], $4::real[], $5::text[]) AS u(a, b, similarity, reason)
ON CONFLICT DO NOTHING;

-- DuplicateScanRepository.list
-- parameters: $1 uuid
SELECT d.a, d.b, d.similarity::float8 AS similarity, d.reason, d.found_at AS "foundAt"
FROM memory_duplicate_candidates d
WHERE d.project_id = $1 ORDER BY d.similarity DESC, d.a, d.b;
