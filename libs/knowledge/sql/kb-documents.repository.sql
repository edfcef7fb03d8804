-- The statements of libs/knowledge/src/kb-documents.repository.ts,
-- as tools/sql-snapshots records them: each method called with its @SqlSnapshot examples on a
-- migrated database, in a transaction rolled back. Placeholders carry the types PostgreSQL infers
-- for them, never values. Generated: `npm run snapshots` rewrites this file.

-- KbDocumentsRepository.lockSource
-- parameters: $1 text, $2 text
SELECT pg_advisory_xact_lock(hashtext($1), hashtext($2));

-- KbDocumentsRepository.renewExisting
-- parameters: $1 uuid, $2 text, $3 text, $4 integer, $5 integer, $6 integer
WITH d AS (
       UPDATE kb_documents u
       SET retained_from = now(), expires_at = now() + make_interval(days => CASE u.retention_tier
         WHEN 'external' THEN $4::int WHEN 'internal' THEN $5::int ELSE $6::int END)
       WHERE u.project_id = $1 AND u.source = $2 AND u.content_hash = $3
       RETURNING u.*)
     SELECT d.id, d.project_id AS "projectId", d.source, d.title, d.source_type AS "sourceType",
d.retention_tier AS "retentionTier", d.content_hash AS "contentHash", d.chunk_count AS "chunkCount",
d.author_user_id AS "authorUserId", d.author_agent_id AS "authorAgentId", d.author_token_id AS "authorTokenId", d.created_at AS "createdAt",
d.expires_at AS "expiresAt", d.metadata FROM d;

-- KbDocumentsRepository.insert
-- parameters: $1 uuid, $2 uuid, $3 text, $4 text, $5 text, $6 text, $7 text, $8 integer, $9 uuid, $10 text,
--   $11 uuid, $12 integer, $13 jsonb
INSERT INTO kb_documents AS d (id, project_id, source, title, source_type, retention_tier, content_hash,
       chunk_count, author_user_id, author_agent_id, author_token_id, expires_at, metadata)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, now() + make_interval(days => $12::int), $13::jsonb)
     RETURNING d.id, d.project_id AS "projectId", d.source, d.title, d.source_type AS "sourceType",
d.retention_tier AS "retentionTier", d.content_hash AS "contentHash", d.chunk_count AS "chunkCount",
d.author_user_id AS "authorUserId", d.author_agent_id AS "authorAgentId", d.author_token_id AS "authorTokenId", d.created_at AS "createdAt",
d.expires_at AS "expiresAt", d.metadata;

-- KbDocumentsRepository.deleteOtherVersions
-- parameters: $1 uuid, $2 text, $3 uuid
WITH gone AS (DELETE FROM kb_documents WHERE project_id = $1 AND source = $2 AND id <> $3 RETURNING 1)
SELECT count(*)::int AS n FROM gone;

-- KbDocumentsRepository.list (first page)
-- parameters: $1 uuid, $2 bigint
SELECT d.id, d.project_id AS "projectId", d.source, d.title, d.source_type AS "sourceType",
d.retention_tier AS "retentionTier", d.content_hash AS "contentHash", d.chunk_count AS "chunkCount",
d.author_user_id AS "authorUserId", d.author_agent_id AS "authorAgentId", d.author_token_id AS "authorTokenId", d.created_at AS "createdAt",
d.expires_at AS "expiresAt", d.metadata FROM kb_documents d WHERE d.project_id = $1
     ORDER BY d.created_at DESC, d.id DESC LIMIT $2;

-- KbDocumentsRepository.list (after a document)
-- parameters: $1 uuid, $2 bigint, $3 uuid
SELECT d.id, d.project_id AS "projectId", d.source, d.title, d.source_type AS "sourceType",
d.retention_tier AS "retentionTier", d.content_hash AS "contentHash", d.chunk_count AS "chunkCount",
d.author_user_id AS "authorUserId", d.author_agent_id AS "authorAgentId", d.author_token_id AS "authorTokenId", d.created_at AS "createdAt",
d.expires_at AS "expiresAt", d.metadata FROM kb_documents d WHERE d.project_id = $1 AND (d.created_at, d.id) < (SELECT a.created_at, a.id FROM kb_documents a WHERE a.id = $3 AND a.project_id = $1)
     ORDER BY d.created_at DESC, d.id DESC LIMIT $2;

-- KbDocumentsRepository.find (read)
-- parameters: $1 uuid, $2 uuid
SELECT d.id, d.project_id AS "projectId", d.source, d.title, d.source_type AS "sourceType",
d.retention_tier AS "retentionTier", d.content_hash AS "contentHash", d.chunk_count AS "chunkCount",
d.author_user_id AS "authorUserId", d.author_agent_id AS "authorAgentId", d.author_token_id AS "authorTokenId", d.created_at AS "createdAt",
d.expires_at AS "expiresAt", d.metadata FROM kb_documents d WHERE d.project_id = $1 AND d.id = $2;

-- KbDocumentsRepository.find (for update)
-- parameters: $1 uuid, $2 uuid
SELECT d.id, d.project_id AS "projectId", d.source, d.title, d.source_type AS "sourceType",
d.retention_tier AS "retentionTier", d.content_hash AS "contentHash", d.chunk_count AS "chunkCount",
d.author_user_id AS "authorUserId", d.author_agent_id AS "authorAgentId", d.author_token_id AS "authorTokenId", d.created_at AS "createdAt",
d.expires_at AS "expiresAt", d.metadata FROM kb_documents d WHERE d.project_id = $1 AND d.id = $2 FOR UPDATE;

-- KbDocumentsRepository.listBySource
-- parameters: $1 uuid, $2 text
SELECT d.id, d.project_id AS "projectId", d.source, d.title, d.source_type AS "sourceType",
d.retention_tier AS "retentionTier", d.content_hash AS "contentHash", d.chunk_count AS "chunkCount",
d.author_user_id AS "authorUserId", d.author_agent_id AS "authorAgentId", d.author_token_id AS "authorTokenId", d.created_at AS "createdAt",
d.expires_at AS "expiresAt", d.metadata FROM kb_documents d WHERE d.project_id = $1 AND d.source = $2 ORDER BY d.id;

-- KbDocumentsRepository.delete
-- parameters: $1 uuid, $2 uuid
WITH gone AS (DELETE FROM kb_documents WHERE project_id = $1 AND id = $2 RETURNING 1)
SELECT count(*)::int AS n FROM gone;

-- KbDocumentsRepository.alignExpiry
-- parameters: $1 integer, $2 integer, $3 integer, $4 uuid, $5 text
WITH moved AS (
   UPDATE kb_documents SET expires_at = retained_from + make_interval(days => CASE retention_tier
WHEN 'external' THEN $1::int WHEN 'internal' THEN $2::int ELSE $3::int END)
   WHERE ($4::uuid IS NULL OR project_id = $4) AND ($5::text IS NULL OR retention_tier = $5)
     AND expires_at <> retained_from + make_interval(days => CASE retention_tier
WHEN 'external' THEN $1::int WHEN 'internal' THEN $2::int ELSE $3::int END)
   RETURNING 1)
 SELECT count(*)::int AS n FROM moved;

-- KbDocumentsRepository.purgeExpired
-- parameters: $1 uuid, $2 text
WITH gone AS (
  DELETE FROM kb_documents
  WHERE expires_at <= now() AND ($1::uuid IS NULL OR project_id = $1) AND ($2::text IS NULL OR retention_tier = $2)
  RETURNING retention_tier, chunk_count)
SELECT retention_tier AS tier, count(*)::int AS documents, coalesce(sum(chunk_count), 0)::int AS chunks
FROM gone GROUP BY retention_tier;
