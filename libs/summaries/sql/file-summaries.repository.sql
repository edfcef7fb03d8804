-- The statements of libs/summaries/src/file-summaries.repository.ts,
-- as tools/sql-snapshots records them: each method called with its @SqlSnapshot examples on a
-- migrated database, in a transaction rolled back. Placeholders carry the types PostgreSQL infers
-- for them, never values. Generated: `npm run snapshots` rewrites this file.

-- FileSummariesRepository.touchReady
-- parameters: $1 uuid, $2 text, $3 text
WITH f AS (
       UPDATE file_summaries SET updated_at = now()
       WHERE project_id = $1 AND path = $2 AND content_hash = $3 AND status = 'ready'
       RETURNING *)
     SELECT f.id, f.project_id AS "projectId", f.path, f.content_hash AS "contentHash", f.status, f.l0, f.l1,
f.generated_by AS "generatedBy", f.flagged_injection AS "flaggedInjection", f.error,
f.created_at AS "createdAt", f.updated_at AS "updatedAt" FROM f;

-- FileSummariesRepository.upsertPending
-- parameters: $1 uuid, $2 uuid, $3 text, $4 text, $5 text, $6 uuid, $7 text
INSERT INTO file_summaries AS f (id, project_id, path, content_hash, content, status,
       requested_by_user_id, requested_by_agent_id)
     VALUES ($1, $2, $3, $4, $5, 'pending', $6, $7)
     ON CONFLICT (project_id, path, content_hash) DO UPDATE SET
       updated_at = now(),
       content = CASE WHEN f.status = 'ready' THEN NULL ELSE EXCLUDED.content END,
       status = CASE WHEN f.status = 'failed' THEN 'pending' ELSE f.status END,
       error = CASE WHEN f.status = 'failed' THEN NULL ELSE f.error END
     RETURNING f.id, f.project_id AS "projectId", f.path, f.content_hash AS "contentHash", f.status, f.l0, f.l1,
f.generated_by AS "generatedBy", f.flagged_injection AS "flaggedInjection", f.error,
f.created_at AS "createdAt", f.updated_at AS "updatedAt";

-- FileSummariesRepository.newestForPath
-- parameters: $1 uuid, $2 text
(SELECT 'newest' AS which, f.id, f.project_id AS "projectId", f.path, f.content_hash AS "contentHash", f.status, f.l0, f.l1,
f.generated_by AS "generatedBy", f.flagged_injection AS "flaggedInjection", f.error,
f.created_at AS "createdAt", f.updated_at AS "updatedAt" FROM file_summaries f
       WHERE f.project_id = $1 AND f.path = $2 ORDER BY f.updated_at DESC, f.id DESC LIMIT 1)
     UNION ALL
     (SELECT 'ready' AS which, f.id, f.project_id AS "projectId", f.path, f.content_hash AS "contentHash", f.status, f.l0, f.l1,
f.generated_by AS "generatedBy", f.flagged_injection AS "flaggedInjection", f.error,
f.created_at AS "createdAt", f.updated_at AS "updatedAt" FROM file_summaries f
       WHERE f.project_id = $1 AND f.path = $2 AND f.status = 'ready' ORDER BY f.updated_at DESC, f.id DESC LIMIT 1);

-- FileSummariesRepository.findForJob (read)
-- parameters: $1 uuid
SELECT f.id, f.project_id AS "projectId", f.path, f.content_hash AS "contentHash", f.status, f.l0, f.l1,
f.generated_by AS "generatedBy", f.flagged_injection AS "flaggedInjection", f.error,
f.created_at AS "createdAt", f.updated_at AS "updatedAt", f.content FROM file_summaries f WHERE f.id = $1;

-- FileSummariesRepository.findForJob (locked)
-- parameters: $1 uuid
SELECT f.id, f.project_id AS "projectId", f.path, f.content_hash AS "contentHash", f.status, f.l0, f.l1,
f.generated_by AS "generatedBy", f.flagged_injection AS "flaggedInjection", f.error,
f.created_at AS "createdAt", f.updated_at AS "updatedAt", f.content FROM file_summaries f WHERE f.id = $1 FOR UPDATE;

-- FileSummariesRepository.complete
-- parameters: $1 uuid, $2 text, $3 text, $4 text, $5 boolean
UPDATE file_summaries SET status = 'ready', l0 = $2, l1 = $3, generated_by = $4, flagged_injection = $5,
  content = NULL, error = NULL
WHERE id = $1;

-- FileSummariesRepository.fail
-- parameters: $1 uuid, $2 text
UPDATE file_summaries SET status = 'failed', error = $2, content = NULL WHERE id = $1;
