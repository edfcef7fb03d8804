-- The statements of libs/extraction/src/proposals.repository.ts,
-- as tools/sql-snapshots records them: each method called with its @SqlSnapshot examples on a
-- migrated database, in a transaction rolled back. Placeholders carry the types PostgreSQL infers
-- for them, never values. Generated: `npm run snapshots` rewrites this file.

-- ProposalsRepository.insertNew
-- parameters: $1 uuid, $2 text[]
SELECT k.key FROM memory_proposals p,
  LATERAL (SELECT btrim(lower(regexp_replace(p.content, '[^[:alnum:]]+', ' ', 'g'))) AS key) k
WHERE p.project_id = $1 AND k.key = ANY($2::text[]);

-- parameters: $1 uuid, $2 uuid, $3 uuid, $4 text, $5 text, $6 smallint, $7 real, $8 text[], $9 text[],
--   $10 timestamp with time zone
INSERT INTO memory_proposals (id, project_id, request_id, content, category, importance, confidence, tags,
  keywords, status, occurred_at)
VALUES ($1, $2, $3, $4, $5, $6, $7, $8::text[], $9::text[], 'pending', $10);

-- ProposalsRepository.list (first page)
-- parameters: $1 uuid, $2 text, $3 bigint
SELECT p.id, p.project_id AS "projectId", p.request_id AS "requestId", p.content, p.category, p.importance,
p.confidence, p.tags, p.keywords, p.status, p.memory_id AS "memoryId",
CASE WHEN p.decided_at IS NULL THEN NULL
  ELSE json_build_object('userId', p.decided_by_user_id, 'agentId', p.decided_by_agent_id) END AS "decidedBy",
p.occurred_at AS "occurredAt", p.created_at AS "createdAt", p.decided_at AS "decidedAt" FROM memory_proposals p WHERE p.project_id = $1 AND p.status = $2
     ORDER BY p.created_at DESC, p.id DESC LIMIT $3;

-- ProposalsRepository.list (after a proposal)
-- parameters: $1 uuid, $2 text, $3 bigint, $4 uuid
SELECT p.id, p.project_id AS "projectId", p.request_id AS "requestId", p.content, p.category, p.importance,
p.confidence, p.tags, p.keywords, p.status, p.memory_id AS "memoryId",
CASE WHEN p.decided_at IS NULL THEN NULL
  ELSE json_build_object('userId', p.decided_by_user_id, 'agentId', p.decided_by_agent_id) END AS "decidedBy",
p.occurred_at AS "occurredAt", p.created_at AS "createdAt", p.decided_at AS "decidedAt" FROM memory_proposals p WHERE p.project_id = $1 AND p.status = $2 AND (p.created_at, p.id) < (SELECT a.created_at, a.id FROM memory_proposals a WHERE a.id = $4 AND a.project_id = $1)
     ORDER BY p.created_at DESC, p.id DESC LIMIT $3;

-- ProposalsRepository.findForUpdate
-- parameters: $1 uuid, $2 uuid
SELECT p.id, p.project_id AS "projectId", p.request_id AS "requestId", p.content, p.category, p.importance,
p.confidence, p.tags, p.keywords, p.status, p.memory_id AS "memoryId",
CASE WHEN p.decided_at IS NULL THEN NULL
  ELSE json_build_object('userId', p.decided_by_user_id, 'agentId', p.decided_by_agent_id) END AS "decidedBy",
p.occurred_at AS "occurredAt", p.created_at AS "createdAt", p.decided_at AS "decidedAt" FROM memory_proposals p WHERE p.project_id = $1 AND p.id = $2 FOR UPDATE;

-- ProposalsRepository.decide
-- parameters: $1 uuid, $2 text, $3 uuid, $4 uuid, $5 text
WITH p AS (
       UPDATE memory_proposals SET status = $2, memory_id = $3, decided_by_user_id = $4, decided_by_agent_id = $5,
         decided_at = now()
       WHERE id = $1 RETURNING *)
     SELECT p.id, p.project_id AS "projectId", p.request_id AS "requestId", p.content, p.category, p.importance,
p.confidence, p.tags, p.keywords, p.status, p.memory_id AS "memoryId",
CASE WHEN p.decided_at IS NULL THEN NULL
  ELSE json_build_object('userId', p.decided_by_user_id, 'agentId', p.decided_by_agent_id) END AS "decidedBy",
p.occurred_at AS "occurredAt", p.created_at AS "createdAt", p.decided_at AS "decidedAt" FROM p;
