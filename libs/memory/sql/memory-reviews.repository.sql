-- The statements of libs/memory/src/memory-reviews.repository.ts,
-- as tools/sql-snapshots records them: each method called with its @SqlSnapshot examples on a
-- migrated database, in a transaction rolled back. Placeholders carry the types PostgreSQL infers
-- for them, never values. Generated: `npm run snapshots` rewrites this file.

-- MemoryReviewsRepository.lockScope
-- parameters: $1 uuid
SELECT scope FROM memories WHERE id = $1 FOR UPDATE;

-- MemoryReviewsRepository.insertPromotion
-- parameters: $1 uuid, $2 uuid, $3 uuid, $4 text, $5 text, $6 text, $7 uuid, $8 text, $9 uuid
WITH r AS (
       INSERT INTO memory_reviews (id, project_id, kind, memory_id, from_scope, to_scope, note,
         proposed_by_user_id, proposed_by_agent_id, proposed_by_token_id)
       VALUES ($1, $2, 'promotion', $3, $4, $5, $6, $7, $8, $9)
       ON CONFLICT DO NOTHING RETURNING *)
     SELECT r.id, r.kind, r.status, r.memory_id AS "memoryId", r.other_memory_id AS "otherMemoryId",
r.from_scope AS "fromScope", r.to_scope AS "toScope", r.note, r.resolution, r.decision_reason AS "decisionReason",
json_build_object('userId', r.proposed_by_user_id, 'agentId', r.proposed_by_agent_id) AS "proposedBy",
CASE WHEN r.decided_at IS NULL THEN NULL
  ELSE json_build_object('userId', r.decided_by_user_id, 'agentId', r.decided_by_agent_id) END AS "decidedBy",
r.created_at AS "createdAt", r.decided_at AS "decidedAt" FROM r;

-- MemoryReviewsRepository.findForUpdate (a reader)
-- parameters: $1 uuid, $2 uuid, $3 uuid, $4 text, $5 uuid, $6 uuid, $7 text, $8 uuid, $9 text, $10 uuid,
--   $11 uuid, $12 text
SELECT r.id, r.kind, r.status, r.memory_id AS "memoryId", r.other_memory_id AS "otherMemoryId",
r.from_scope AS "fromScope", r.to_scope AS "toScope", r.note, r.resolution, r.decision_reason AS "decisionReason",
json_build_object('userId', r.proposed_by_user_id, 'agentId', r.proposed_by_agent_id) AS "proposedBy",
CASE WHEN r.decided_at IS NULL THEN NULL
  ELSE json_build_object('userId', r.decided_by_user_id, 'agentId', r.decided_by_agent_id) END AS "decidedBy",
r.created_at AS "createdAt", r.decided_at AS "decidedAt" FROM memory_reviews r
LEFT JOIN memories m ON m.id = r.memory_id AND m.deleted_at IS NULL
LEFT JOIN memories o ON o.id = r.other_memory_id AND o.deleted_at IS NULL WHERE r.project_id = $1 AND r.id = $2 AND (r.kind = 'promotion' OR (m.id IS NULL OR (m.scope <> 'private' OR ((m.author_token_id = $5::uuid OR m.author_user_id = $3::uuid OR ($3::uuid IS NULL AND m.author_user_id IS NULL AND m.author_agent_id = $4::text)) IS TRUE) OR EXISTS (SELECT s.permission, 'share' AS via, s.id AS grant_id, s.granted_by_user_id AS by_user_id,
       s.granted_by_agent_id AS by_agent_id, s.granted_by_token_id AS by_token_id, s.created_at AS granted_at
     FROM memory_shares s WHERE s.memory_id = m.id AND (s.grantee_user_id = $6::uuid OR s.grantee_agent_id = $7::text)
     UNION ALL
     SELECT r.permission, 'rule', r.id, r.owner_user_id, r.owner_agent_id, r.owner_token_id, r.created_at
     FROM memory_share_rules r
     WHERE (r.grantee_user_id = $6::uuid OR r.grantee_agent_id = $7::text) AND r.tag = ANY(m.tags) AND (r.project_id IS NULL OR r.project_id = m.project_id) AND ((m.author_token_id = r.owner_token_id OR m.author_user_id = r.owner_user_id OR (r.owner_user_id IS NULL AND m.author_user_id IS NULL AND m.author_agent_id = r.owner_agent_id)) IS TRUE))))) AND (o.id IS NULL OR (o.scope <> 'private' OR ((o.author_token_id = $10::uuid OR o.author_user_id = $8::uuid OR ($8::uuid IS NULL AND o.author_user_id IS NULL AND o.author_agent_id = $9::text)) IS TRUE) OR EXISTS (SELECT s.permission, 'share' AS via, s.id AS grant_id, s.granted_by_user_id AS by_user_id,
       s.granted_by_agent_id AS by_agent_id, s.granted_by_token_id AS by_token_id, s.created_at AS granted_at
     FROM memory_shares s WHERE s.memory_id = o.id AND (s.grantee_user_id = $11::uuid OR s.grantee_agent_id = $12::text)
     UNION ALL
     SELECT r.permission, 'rule', r.id, r.owner_user_id, r.owner_agent_id, r.owner_token_id, r.created_at
     FROM memory_share_rules r
     WHERE (r.grantee_user_id = $11::uuid OR r.grantee_agent_id = $12::text) AND r.tag = ANY(o.tags) AND (r.project_id IS NULL OR r.project_id = o.project_id) AND ((o.author_token_id = r.owner_token_id OR o.author_user_id = r.owner_user_id OR (r.owner_user_id IS NULL AND o.author_user_id IS NULL AND o.author_agent_id = r.owner_agent_id)) IS TRUE)))) FOR UPDATE OF r;

-- MemoryReviewsRepository.findForUpdate (the system)
-- parameters: $1 uuid, $2 uuid
SELECT r.id, r.kind, r.status, r.memory_id AS "memoryId", r.other_memory_id AS "otherMemoryId",
r.from_scope AS "fromScope", r.to_scope AS "toScope", r.note, r.resolution, r.decision_reason AS "decisionReason",
json_build_object('userId', r.proposed_by_user_id, 'agentId', r.proposed_by_agent_id) AS "proposedBy",
CASE WHEN r.decided_at IS NULL THEN NULL
  ELSE json_build_object('userId', r.decided_by_user_id, 'agentId', r.decided_by_agent_id) END AS "decidedBy",
r.created_at AS "createdAt", r.decided_at AS "decidedAt" FROM memory_reviews r
LEFT JOIN memories m ON m.id = r.memory_id AND m.deleted_at IS NULL
LEFT JOIN memories o ON o.id = r.other_memory_id AND o.deleted_at IS NULL WHERE r.project_id = $1 AND r.id = $2 AND (r.kind = 'promotion' OR (m.id IS NULL OR true)) AND (o.id IS NULL OR true) FOR UPDATE OF r;

-- MemoryReviewsRepository.decide
-- parameters: $1 uuid, $2 text, $3 text, $4 text, $5 uuid, $6 text, $7 uuid
WITH r AS (
       UPDATE memory_reviews SET status = $2, resolution = $3, decision_reason = $4, decided_by_user_id = $5,
         decided_by_agent_id = $6, decided_by_token_id = $7, decided_at = now()
       WHERE id = $1 RETURNING *)
     SELECT r.id, r.kind, r.status, r.memory_id AS "memoryId", r.other_memory_id AS "otherMemoryId",
r.from_scope AS "fromScope", r.to_scope AS "toScope", r.note, r.resolution, r.decision_reason AS "decisionReason",
json_build_object('userId', r.proposed_by_user_id, 'agentId', r.proposed_by_agent_id) AS "proposedBy",
CASE WHEN r.decided_at IS NULL THEN NULL
  ELSE json_build_object('userId', r.decided_by_user_id, 'agentId', r.decided_by_agent_id) END AS "decidedBy",
r.created_at AS "createdAt", r.decided_at AS "decidedAt" FROM r;

-- MemoryReviewsRepository.setScope
-- parameters: $1 uuid, $2 text
UPDATE memories SET scope = $2, version = version + 1, updated_at = now(), change_xid = pg_current_xact_id()
WHERE id = $1;

-- MemoryReviewsRepository.archive
-- parameters: $1 uuid
UPDATE memories SET archived_at = now(), updated_at = now(), change_xid = pg_current_xact_id()
WHERE id = $1 AND archived_at IS NULL;

-- MemoryReviewsRepository.list (first page)
-- parameters: $1 uuid, $2 text, $3 uuid, $4 text, $5 uuid, $6 uuid, $7 text, $8 uuid, $9 text, $10 uuid,
--   $11 uuid, $12 text, $13 bigint
SELECT r.id, r.kind, r.status, r.memory_id AS "memoryId", r.other_memory_id AS "otherMemoryId",
r.from_scope AS "fromScope", r.to_scope AS "toScope", r.note, r.resolution, r.decision_reason AS "decisionReason",
json_build_object('userId', r.proposed_by_user_id, 'agentId', r.proposed_by_agent_id) AS "proposedBy",
CASE WHEN r.decided_at IS NULL THEN NULL
  ELSE json_build_object('userId', r.decided_by_user_id, 'agentId', r.decided_by_agent_id) END AS "decidedBy",
r.created_at AS "createdAt", r.decided_at AS "decidedAt", CASE WHEN m.id IS NULL THEN NULL ELSE json_build_object(
  'id', m.id, 'excerpt', left(m.content, 300), 'category', m.category,
  'author', json_build_object('userId', m.author_user_id, 'agentId', m.author_agent_id),
  'agentWritten', m.author_agent_id IS NOT NULL) END AS memory, CASE WHEN o.id IS NULL THEN NULL ELSE json_build_object(
  'id', o.id, 'excerpt', left(o.content, 300), 'category', o.category,
  'author', json_build_object('userId', o.author_user_id, 'agentId', o.author_agent_id),
  'agentWritten', o.author_agent_id IS NOT NULL) END AS "otherMemory"
     FROM memory_reviews r
LEFT JOIN memories m ON m.id = r.memory_id AND m.deleted_at IS NULL
LEFT JOIN memories o ON o.id = r.other_memory_id AND o.deleted_at IS NULL
     WHERE r.project_id = $1 AND r.status = $2
       AND (r.kind = 'promotion' OR (m.id IS NULL OR (m.scope <> 'private' OR ((m.author_token_id = $5::uuid OR m.author_user_id = $3::uuid OR ($3::uuid IS NULL AND m.author_user_id IS NULL AND m.author_agent_id = $4::text)) IS TRUE) OR EXISTS (SELECT s.permission, 'share' AS via, s.id AS grant_id, s.granted_by_user_id AS by_user_id,
       s.granted_by_agent_id AS by_agent_id, s.granted_by_token_id AS by_token_id, s.created_at AS granted_at
     FROM memory_shares s WHERE s.memory_id = m.id AND (s.grantee_user_id = $6::uuid OR s.grantee_agent_id = $7::text)
     UNION ALL
     SELECT r.permission, 'rule', r.id, r.owner_user_id, r.owner_agent_id, r.owner_token_id, r.created_at
     FROM memory_share_rules r
     WHERE (r.grantee_user_id = $6::uuid OR r.grantee_agent_id = $7::text) AND r.tag = ANY(m.tags) AND (r.project_id IS NULL OR r.project_id = m.project_id) AND ((m.author_token_id = r.owner_token_id OR m.author_user_id = r.owner_user_id OR (r.owner_user_id IS NULL AND m.author_user_id IS NULL AND m.author_agent_id = r.owner_agent_id)) IS TRUE))))) AND (o.id IS NULL OR (o.scope <> 'private' OR ((o.author_token_id = $10::uuid OR o.author_user_id = $8::uuid OR ($8::uuid IS NULL AND o.author_user_id IS NULL AND o.author_agent_id = $9::text)) IS TRUE) OR EXISTS (SELECT s.permission, 'share' AS via, s.id AS grant_id, s.granted_by_user_id AS by_user_id,
       s.granted_by_agent_id AS by_agent_id, s.granted_by_token_id AS by_token_id, s.created_at AS granted_at
     FROM memory_shares s WHERE s.memory_id = o.id AND (s.grantee_user_id = $11::uuid OR s.grantee_agent_id = $12::text)
     UNION ALL
     SELECT r.permission, 'rule', r.id, r.owner_user_id, r.owner_agent_id, r.owner_token_id, r.created_at
     FROM memory_share_rules r
     WHERE (r.grantee_user_id = $11::uuid OR r.grantee_agent_id = $12::text) AND r.tag = ANY(o.tags) AND (r.project_id IS NULL OR r.project_id = o.project_id) AND ((o.author_token_id = r.owner_token_id OR o.author_user_id = r.owner_user_id OR (r.owner_user_id IS NULL AND o.author_user_id IS NULL AND o.author_agent_id = r.owner_agent_id)) IS TRUE))))
     ORDER BY r.created_at, r.id LIMIT $13;

-- MemoryReviewsRepository.list (after a review)
-- parameters: $1 uuid, $2 uuid, $3 text, $4 uuid, $5 text, $6 uuid, $7 uuid, $8 text, $9 uuid, $10 text,
--   $11 uuid, $12 uuid, $13 text, $14 bigint
SELECT r.id, r.kind, r.status, r.memory_id AS "memoryId", r.other_memory_id AS "otherMemoryId",
r.from_scope AS "fromScope", r.to_scope AS "toScope", r.note, r.resolution, r.decision_reason AS "decisionReason",
json_build_object('userId', r.proposed_by_user_id, 'agentId', r.proposed_by_agent_id) AS "proposedBy",
CASE WHEN r.decided_at IS NULL THEN NULL
  ELSE json_build_object('userId', r.decided_by_user_id, 'agentId', r.decided_by_agent_id) END AS "decidedBy",
r.created_at AS "createdAt", r.decided_at AS "decidedAt", CASE WHEN m.id IS NULL THEN NULL ELSE json_build_object(
  'id', m.id, 'excerpt', left(m.content, 300), 'category', m.category,
  'author', json_build_object('userId', m.author_user_id, 'agentId', m.author_agent_id),
  'agentWritten', m.author_agent_id IS NOT NULL) END AS memory, CASE WHEN o.id IS NULL THEN NULL ELSE json_build_object(
  'id', o.id, 'excerpt', left(o.content, 300), 'category', o.category,
  'author', json_build_object('userId', o.author_user_id, 'agentId', o.author_agent_id),
  'agentWritten', o.author_agent_id IS NOT NULL) END AS "otherMemory"
     FROM memory_reviews r
LEFT JOIN memories m ON m.id = r.memory_id AND m.deleted_at IS NULL
LEFT JOIN memories o ON o.id = r.other_memory_id AND o.deleted_at IS NULL
     WHERE r.project_id = $1 AND r.status = $3 AND (r.created_at, r.id) > (SELECT a.created_at, a.id FROM memory_reviews a
         WHERE a.id = $2 AND a.project_id = $1)
       AND (r.kind = 'promotion' OR (m.id IS NULL OR (m.scope <> 'private' OR ((m.author_token_id = $6::uuid OR m.author_user_id = $4::uuid OR ($4::uuid IS NULL AND m.author_user_id IS NULL AND m.author_agent_id = $5::text)) IS TRUE) OR EXISTS (SELECT s.permission, 'share' AS via, s.id AS grant_id, s.granted_by_user_id AS by_user_id,
       s.granted_by_agent_id AS by_agent_id, s.granted_by_token_id AS by_token_id, s.created_at AS granted_at
     FROM memory_shares s WHERE s.memory_id = m.id AND (s.grantee_user_id = $7::uuid OR s.grantee_agent_id = $8::text)
     UNION ALL
     SELECT r.permission, 'rule', r.id, r.owner_user_id, r.owner_agent_id, r.owner_token_id, r.created_at
     FROM memory_share_rules r
     WHERE (r.grantee_user_id = $7::uuid OR r.grantee_agent_id = $8::text) AND r.tag = ANY(m.tags) AND (r.project_id IS NULL OR r.project_id = m.project_id) AND ((m.author_token_id = r.owner_token_id OR m.author_user_id = r.owner_user_id OR (r.owner_user_id IS NULL AND m.author_user_id IS NULL AND m.author_agent_id = r.owner_agent_id)) IS TRUE))))) AND (o.id IS NULL OR (o.scope <> 'private' OR ((o.author_token_id = $11::uuid OR o.author_user_id = $9::uuid OR ($9::uuid IS NULL AND o.author_user_id IS NULL AND o.author_agent_id = $10::text)) IS TRUE) OR EXISTS (SELECT s.permission, 'share' AS via, s.id AS grant_id, s.granted_by_user_id AS by_user_id,
       s.granted_by_agent_id AS by_agent_id, s.granted_by_token_id AS by_token_id, s.created_at AS granted_at
     FROM memory_shares s WHERE s.memory_id = o.id AND (s.grantee_user_id = $12::uuid OR s.grantee_agent_id = $13::text)
     UNION ALL
     SELECT r.permission, 'rule', r.id, r.owner_user_id, r.owner_agent_id, r.owner_token_id, r.created_at
     FROM memory_share_rules r
     WHERE (r.grantee_user_id = $12::uuid OR r.grantee_agent_id = $13::text) AND r.tag = ANY(o.tags) AND (r.project_id IS NULL OR r.project_id = o.project_id) AND ((o.author_token_id = r.owner_token_id OR o.author_user_id = r.owner_user_id OR (r.owner_user_id IS NULL AND o.author_user_id IS NULL AND o.author_agent_id = r.owner_agent_id)) IS TRUE))))
     ORDER BY r.created_at, r.id LIMIT $14;

-- MemoryReviewsRepository.untold
-- parameters: $1 uuid, $2 uuid, $3 text, $4 uuid, $5 bigint
SELECT r.id, r.kind, r.status, r.memory_id AS "memoryId", r.to_scope AS "toScope", r.resolution,
  r.decision_reason AS "decisionReason", r.decided_at AS "decidedAt"
FROM memory_reviews r JOIN memories m ON m.id = r.memory_id
WHERE r.project_id = $1 AND r.status <> 'pending' AND r.author_notified_at IS NULL AND ((m.author_token_id = $4::uuid OR m.author_user_id = $2::uuid OR ($2::uuid IS NULL AND m.author_user_id IS NULL AND m.author_agent_id = $3::text)) IS TRUE)
ORDER BY r.decided_at, r.id LIMIT $5;

-- MemoryReviewsRepository.markTold
-- parameters: $1 uuid[]
UPDATE memory_reviews SET author_notified_at = now() WHERE id = ANY($1::uuid[]) AND author_notified_at IS NULL;
