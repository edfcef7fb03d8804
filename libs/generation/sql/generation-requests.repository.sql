-- The statements of libs/generation/src/generation-requests.repository.ts,
-- as tools/sql-snapshots records them: each method called with its @SqlSnapshot examples on a
-- migrated database, in a transaction rolled back. Placeholders carry the types PostgreSQL infers
-- for them, never values. Generated: `npm run snapshots` rewrites this file.

-- GenerationRequestsRepository.insert
-- parameters: $1 uuid, $2 uuid, $3 text, $4 text, $5 text, $6 uuid, $7 text, $8 uuid,
--   $9 timestamp with time zone
INSERT INTO generation_requests AS r (id, project_id, kind, input, input_hash, status,
       requested_by_user_id, requested_by_agent_id, requested_by_token_id, occurred_at)
     VALUES ($1, $2, $3, $4, $5, 'pending', $6, $7, $8, $9)
     RETURNING r.id, r.project_id AS "projectId", r.kind, r.status, r.result, r.generated_by AS "generatedBy",
r.flagged_injection AS "flaggedInjection", r.error,
json_build_object('userId', r.requested_by_user_id, 'agentId', r.requested_by_agent_id,
  'tokenId', r.requested_by_token_id) AS "requestedBy",
r.created_at AS "createdAt", r.completed_at AS "completedAt";

-- GenerationRequestsRepository.findReusable
-- parameters: $1 text, $2 text
SELECT pg_advisory_xact_lock(hashtext($1), hashtext($2));

-- parameters: $1 uuid, $2 text, $3 text, $4 uuid, $5 text, $6 uuid, $7 timestamp with time zone
SELECT r.id, r.project_id AS "projectId", r.kind, r.status, r.result, r.generated_by AS "generatedBy",
r.flagged_injection AS "flaggedInjection", r.error,
json_build_object('userId', r.requested_by_user_id, 'agentId', r.requested_by_agent_id,
  'tokenId', r.requested_by_token_id) AS "requestedBy",
r.created_at AS "createdAt", r.completed_at AS "completedAt" FROM generation_requests r
     WHERE r.project_id = $1 AND r.kind = $2 AND r.input_hash = $3 AND r.status IN ('pending', 'done')
       AND r.created_at > now() - interval '1 day'
       AND r.requested_by_user_id IS NOT DISTINCT FROM $4 AND r.requested_by_agent_id IS NOT DISTINCT FROM $5
       AND r.requested_by_token_id IS NOT DISTINCT FROM $6 AND r.occurred_at IS NOT DISTINCT FROM $7
     ORDER BY r.created_at DESC LIMIT 1;

-- GenerationRequestsRepository.findInProject
-- parameters: $1 uuid, $2 uuid
SELECT r.id, r.project_id AS "projectId", r.kind, r.status, r.result, r.generated_by AS "generatedBy",
r.flagged_injection AS "flaggedInjection", r.error,
json_build_object('userId', r.requested_by_user_id, 'agentId', r.requested_by_agent_id,
  'tokenId', r.requested_by_token_id) AS "requestedBy",
r.created_at AS "createdAt", r.completed_at AS "completedAt" FROM generation_requests r WHERE r.project_id = $1 AND r.id = $2;

-- GenerationRequestsRepository.findForJob (read)
-- parameters: $1 uuid
SELECT r.id, r.project_id AS "projectId", r.kind, r.status, r.result, r.generated_by AS "generatedBy",
r.flagged_injection AS "flaggedInjection", r.error,
json_build_object('userId', r.requested_by_user_id, 'agentId', r.requested_by_agent_id,
  'tokenId', r.requested_by_token_id) AS "requestedBy",
r.created_at AS "createdAt", r.completed_at AS "completedAt", r.input, r.occurred_at AS "occurredAt"
     FROM generation_requests r
     WHERE r.id = $1;

-- GenerationRequestsRepository.findForJob (locked)
-- parameters: $1 uuid
SELECT r.id, r.project_id AS "projectId", r.kind, r.status, r.result, r.generated_by AS "generatedBy",
r.flagged_injection AS "flaggedInjection", r.error,
json_build_object('userId', r.requested_by_user_id, 'agentId', r.requested_by_agent_id,
  'tokenId', r.requested_by_token_id) AS "requestedBy",
r.created_at AS "createdAt", r.completed_at AS "completedAt", r.input, r.occurred_at AS "occurredAt"
     FROM generation_requests r
     WHERE r.id = $1 FOR UPDATE OF r;

-- GenerationRequestsRepository.complete
-- parameters: $1 uuid, $2 jsonb, $3 text, $4 boolean
UPDATE generation_requests SET status = 'done', result = $2::jsonb, generated_by = $3,
  flagged_injection = $4, input = NULL, error = NULL, completed_at = now()
WHERE id = $1;

-- GenerationRequestsRepository.fail
-- parameters: $1 uuid, $2 text
UPDATE generation_requests SET status = 'failed', error = $2, input = NULL, completed_at = now() WHERE id = $1;
