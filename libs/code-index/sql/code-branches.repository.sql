-- The statements of libs/code-index/src/code-branches.repository.ts,
-- as tools/sql-snapshots records them: each method called with its @SqlSnapshot examples on a
-- migrated database, in a transaction rolled back. Placeholders carry the types PostgreSQL infers
-- for them, never values. Generated: `npm run snapshots` rewrites this file.

-- CodeBranchesRepository.lockOrCreate
-- parameters: $1 uuid, $2 uuid, $3 text
INSERT INTO code_branches (id, project_id, name) VALUES ($1, $2, $3) ON CONFLICT (project_id, name) DO NOTHING;

-- parameters: $1 uuid, $2 text
SELECT id, project_id AS "projectId", name, last_commit AS "lastCommit", indexed_at AS "indexedAt" FROM code_branches WHERE project_id = $1 AND name = $2 FOR UPDATE;

-- CodeBranchesRepository.find (read)
-- parameters: $1 uuid, $2 text
SELECT id, project_id AS "projectId", name, last_commit AS "lastCommit", indexed_at AS "indexedAt" FROM code_branches WHERE project_id = $1 AND name = $2;

-- CodeBranchesRepository.find (locked)
-- parameters: $1 uuid, $2 text
SELECT id, project_id AS "projectId", name, last_commit AS "lastCommit", indexed_at AS "indexedAt" FROM code_branches WHERE project_id = $1 AND name = $2 FOR UPDATE;

-- CodeBranchesRepository.newest
-- parameters: $1 uuid
SELECT id, project_id AS "projectId", name, last_commit AS "lastCommit", indexed_at AS "indexedAt" FROM code_branches WHERE project_id = $1
ORDER BY indexed_at DESC NULLS LAST, created_at DESC LIMIT 1;

-- CodeBranchesRepository.recordRun
-- parameters: $1 uuid, $2 text
UPDATE code_branches SET indexed_at = now(), last_commit = coalesce($2, last_commit) WHERE id = $1;

-- CodeBranchesRepository.counts
-- parameters: $1 uuid
SELECT (SELECT count(*)::int FROM code_files WHERE branch_id = $1) AS files,
(SELECT count(*)::int FROM code_symbols WHERE branch_id = $1) AS symbols;
