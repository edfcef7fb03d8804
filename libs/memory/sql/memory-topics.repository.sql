-- The statements of libs/memory/src/memory-topics.repository.ts,
-- as tools/sql-snapshots records them: each method called with its @SqlSnapshot examples on a
-- migrated database, in a transaction rolled back. Placeholders carry the types PostgreSQL infers
-- for them, never values. Generated: `npm run snapshots` rewrites this file.

-- MemoryTopicsRepository.countVisible
-- parameters: $1 uuid[], $2 uuid, $3 text, $4 uuid, $5 uuid, $6 text
SELECT count(*)::int AS n FROM memories m WHERE m.deleted_at IS NULL AND (m.project_id = ANY($1::uuid[]) OR m.scope = 'team') AND (m.scope <> 'private' OR ((m.author_token_id = $4::uuid OR m.author_user_id = $2::uuid OR ($2::uuid IS NULL AND m.author_user_id IS NULL AND m.author_agent_id = $3::text)) IS TRUE) OR EXISTS (SELECT s.permission, 'share' AS via, s.id AS grant_id, s.granted_by_user_id AS by_user_id,
  s.granted_by_agent_id AS by_agent_id, s.granted_by_token_id AS by_token_id, s.created_at AS granted_at
FROM memory_shares s WHERE s.memory_id = m.id AND (s.grantee_user_id = $5::uuid OR s.grantee_agent_id = $6::text)
UNION ALL
SELECT r.permission, 'rule', r.id, r.owner_user_id, r.owner_agent_id, r.owner_token_id, r.created_at
FROM memory_share_rules r
WHERE (r.grantee_user_id = $5::uuid OR r.grantee_agent_id = $6::text) AND r.tag = ANY(m.tags) AND (r.project_id IS NULL OR r.project_id = m.project_id) AND ((m.author_token_id = r.owner_token_id OR m.author_user_id = r.owner_user_id OR (r.owner_user_id IS NULL AND m.author_user_id IS NULL AND m.author_agent_id = r.owner_agent_id)) IS TRUE))) AND m.archived_at IS NULL AND m.superseded_by IS NULL;

-- MemoryTopicsRepository.tagAndKeywordTopics (every topic)
-- parameters: $1 uuid[], $2 uuid, $3 text, $4 uuid, $5 uuid, $6 text, $7 bigint
WITH labels AS (
  SELECT m.id, t.topic, bool_or(t.source = 'tag') AS from_tag, bool_or(t.source = 'keyword') AS from_keyword
  FROM memories m
  CROSS JOIN LATERAL (
    SELECT btrim(ltrim(btrim(regexp_replace(lower(x.label), '\s+', ' ', 'g')), '#')) AS topic, x.source
    FROM (SELECT unnest(m.tags) AS label, 'tag' AS source
          UNION ALL SELECT unnest(m.keywords), 'keyword') x
  ) t
  WHERE m.deleted_at IS NULL AND (m.project_id = ANY($1::uuid[]) OR m.scope = 'team') AND (m.scope <> 'private' OR ((m.author_token_id = $4::uuid OR m.author_user_id = $2::uuid OR ($2::uuid IS NULL AND m.author_user_id IS NULL AND m.author_agent_id = $3::text)) IS TRUE) OR EXISTS (SELECT s.permission, 'share' AS via, s.id AS grant_id, s.granted_by_user_id AS by_user_id,
  s.granted_by_agent_id AS by_agent_id, s.granted_by_token_id AS by_token_id, s.created_at AS granted_at
FROM memory_shares s WHERE s.memory_id = m.id AND (s.grantee_user_id = $5::uuid OR s.grantee_agent_id = $6::text)
UNION ALL
SELECT r.permission, 'rule', r.id, r.owner_user_id, r.owner_agent_id, r.owner_token_id, r.created_at
FROM memory_share_rules r
WHERE (r.grantee_user_id = $5::uuid OR r.grantee_agent_id = $6::text) AND r.tag = ANY(m.tags) AND (r.project_id IS NULL OR r.project_id = m.project_id) AND ((m.author_token_id = r.owner_token_id OR m.author_user_id = r.owner_user_id OR (r.owner_user_id IS NULL AND m.author_user_id IS NULL AND m.author_agent_id = r.owner_agent_id)) IS TRUE))) AND m.archived_at IS NULL AND m.superseded_by IS NULL AND char_length(t.topic) BETWEEN 2 AND 64
  GROUP BY m.id, t.topic
)
SELECT topic, count(*)::int AS memories, count(*) FILTER (WHERE from_tag)::int AS tag,
  count(*) FILTER (WHERE from_keyword)::int AS keyword
FROM labels GROUP BY topic ORDER BY memories DESC, topic LIMIT $7;

-- MemoryTopicsRepository.tagAndKeywordTopics (under a prefix)
-- parameters: $1 uuid[], $2 uuid, $3 text, $4 uuid, $5 uuid, $6 text, $7 integer, $8 text, $9 bigint
WITH labels AS (
  SELECT m.id, t.topic, bool_or(t.source = 'tag') AS from_tag, bool_or(t.source = 'keyword') AS from_keyword
  FROM memories m
  CROSS JOIN LATERAL (
    SELECT btrim(ltrim(btrim(regexp_replace(lower(x.label), '\s+', ' ', 'g')), '#')) AS topic, x.source
    FROM (SELECT unnest(m.tags) AS label, 'tag' AS source
          UNION ALL SELECT unnest(m.keywords), 'keyword') x
  ) t
  WHERE m.deleted_at IS NULL AND (m.project_id = ANY($1::uuid[]) OR m.scope = 'team') AND (m.scope <> 'private' OR ((m.author_token_id = $4::uuid OR m.author_user_id = $2::uuid OR ($2::uuid IS NULL AND m.author_user_id IS NULL AND m.author_agent_id = $3::text)) IS TRUE) OR EXISTS (SELECT s.permission, 'share' AS via, s.id AS grant_id, s.granted_by_user_id AS by_user_id,
  s.granted_by_agent_id AS by_agent_id, s.granted_by_token_id AS by_token_id, s.created_at AS granted_at
FROM memory_shares s WHERE s.memory_id = m.id AND (s.grantee_user_id = $5::uuid OR s.grantee_agent_id = $6::text)
UNION ALL
SELECT r.permission, 'rule', r.id, r.owner_user_id, r.owner_agent_id, r.owner_token_id, r.created_at
FROM memory_share_rules r
WHERE (r.grantee_user_id = $5::uuid OR r.grantee_agent_id = $6::text) AND r.tag = ANY(m.tags) AND (r.project_id IS NULL OR r.project_id = m.project_id) AND ((m.author_token_id = r.owner_token_id OR m.author_user_id = r.owner_user_id OR (r.owner_user_id IS NULL AND m.author_user_id IS NULL AND m.author_agent_id = r.owner_agent_id)) IS TRUE))) AND m.archived_at IS NULL AND m.superseded_by IS NULL AND char_length(t.topic) BETWEEN 2 AND 64 AND left(t.topic, $7) = $8
  GROUP BY m.id, t.topic
)
SELECT topic, count(*)::int AS memories, count(*) FILTER (WHERE from_tag)::int AS tag,
  count(*) FILTER (WHERE from_keyword)::int AS keyword
FROM labels GROUP BY topic ORDER BY memories DESC, topic LIMIT $9;

-- MemoryTopicsRepository.hashtagCandidates
-- parameters: $1 integer, $2 uuid[], $3 uuid, $4 text, $5 uuid, $6 uuid, $7 text, $8 bigint
SELECT m.tags, m.keywords, left(m.content, $1) AS content
FROM memories m WHERE m.deleted_at IS NULL AND (m.project_id = ANY($2::uuid[]) OR m.scope = 'team') AND (m.scope <> 'private' OR ((m.author_token_id = $5::uuid OR m.author_user_id = $3::uuid OR ($3::uuid IS NULL AND m.author_user_id IS NULL AND m.author_agent_id = $4::text)) IS TRUE) OR EXISTS (SELECT s.permission, 'share' AS via, s.id AS grant_id, s.granted_by_user_id AS by_user_id,
  s.granted_by_agent_id AS by_agent_id, s.granted_by_token_id AS by_token_id, s.created_at AS granted_at
FROM memory_shares s WHERE s.memory_id = m.id AND (s.grantee_user_id = $6::uuid OR s.grantee_agent_id = $7::text)
UNION ALL
SELECT r.permission, 'rule', r.id, r.owner_user_id, r.owner_agent_id, r.owner_token_id, r.created_at
FROM memory_share_rules r
WHERE (r.grantee_user_id = $6::uuid OR r.grantee_agent_id = $7::text) AND r.tag = ANY(m.tags) AND (r.project_id IS NULL OR r.project_id = m.project_id) AND ((m.author_token_id = r.owner_token_id OR m.author_user_id = r.owner_user_id OR (r.owner_user_id IS NULL AND m.author_user_id IS NULL AND m.author_agent_id = r.owner_agent_id)) IS TRUE))) AND m.archived_at IS NULL AND m.superseded_by IS NULL AND strpos(m.content, '#') > 0
ORDER BY m.created_at DESC, m.id DESC LIMIT $8;

-- MemoryTopicsRepository.categoryCounts
-- parameters: $1 uuid[], $2 uuid, $3 text, $4 uuid, $5 uuid, $6 text
SELECT m.category, count(*)::int AS memories, max(m.created_at) AS "newestAt"
FROM memories m WHERE m.deleted_at IS NULL AND (m.project_id = ANY($1::uuid[]) OR m.scope = 'team') AND (m.scope <> 'private' OR ((m.author_token_id = $4::uuid OR m.author_user_id = $2::uuid OR ($2::uuid IS NULL AND m.author_user_id IS NULL AND m.author_agent_id = $3::text)) IS TRUE) OR EXISTS (SELECT s.permission, 'share' AS via, s.id AS grant_id, s.granted_by_user_id AS by_user_id,
  s.granted_by_agent_id AS by_agent_id, s.granted_by_token_id AS by_token_id, s.created_at AS granted_at
FROM memory_shares s WHERE s.memory_id = m.id AND (s.grantee_user_id = $5::uuid OR s.grantee_agent_id = $6::text)
UNION ALL
SELECT r.permission, 'rule', r.id, r.owner_user_id, r.owner_agent_id, r.owner_token_id, r.created_at
FROM memory_share_rules r
WHERE (r.grantee_user_id = $5::uuid OR r.grantee_agent_id = $6::text) AND r.tag = ANY(m.tags) AND (r.project_id IS NULL OR r.project_id = m.project_id) AND ((m.author_token_id = r.owner_token_id OR m.author_user_id = r.owner_user_id OR (r.owner_user_id IS NULL AND m.author_user_id IS NULL AND m.author_agent_id = r.owner_agent_id)) IS TRUE))) AND m.archived_at IS NULL AND m.superseded_by IS NULL
GROUP BY m.category ORDER BY memories DESC, m.category;

-- MemoryTopicsRepository.newestPerCategory
-- parameters: $1 uuid[], $2 uuid, $3 text, $4 uuid, $5 uuid, $6 text, $7 text[], $8 integer, $9 bigint
SELECT c.category, n.id, n.snippet, n."createdAt"
FROM unnest($7::text[]) AS c(category)
CROSS JOIN LATERAL (
  SELECT m.id, left(m.content, $8) AS snippet, m.created_at AS "createdAt"
  FROM memories m WHERE m.deleted_at IS NULL AND (m.project_id = ANY($1::uuid[]) OR m.scope = 'team') AND (m.scope <> 'private' OR ((m.author_token_id = $4::uuid OR m.author_user_id = $2::uuid OR ($2::uuid IS NULL AND m.author_user_id IS NULL AND m.author_agent_id = $3::text)) IS TRUE) OR EXISTS (SELECT s.permission, 'share' AS via, s.id AS grant_id, s.granted_by_user_id AS by_user_id,
  s.granted_by_agent_id AS by_agent_id, s.granted_by_token_id AS by_token_id, s.created_at AS granted_at
FROM memory_shares s WHERE s.memory_id = m.id AND (s.grantee_user_id = $5::uuid OR s.grantee_agent_id = $6::text)
UNION ALL
SELECT r.permission, 'rule', r.id, r.owner_user_id, r.owner_agent_id, r.owner_token_id, r.created_at
FROM memory_share_rules r
WHERE (r.grantee_user_id = $5::uuid OR r.grantee_agent_id = $6::text) AND r.tag = ANY(m.tags) AND (r.project_id IS NULL OR r.project_id = m.project_id) AND ((m.author_token_id = r.owner_token_id OR m.author_user_id = r.owner_user_id OR (r.owner_user_id IS NULL AND m.author_user_id IS NULL AND m.author_agent_id = r.owner_agent_id)) IS TRUE))) AND m.archived_at IS NULL AND m.superseded_by IS NULL AND m.category = c.category
  ORDER BY m.created_at DESC, m.id DESC LIMIT $9
) n
ORDER BY c.category, n."createdAt" DESC, n.id DESC;
