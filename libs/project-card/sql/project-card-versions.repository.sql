-- The statements of libs/project-card/src/project-card-versions.repository.ts,
-- as tools/sql-snapshots records them: each method called with its @SqlSnapshot examples on a
-- migrated database, in a transaction rolled back. Placeholders carry the types PostgreSQL infers
-- for them, never values. Generated: `npm run snapshots` rewrites this file.

-- ProjectCardVersionsRepository.lockCard
-- parameters: $1 text
SELECT pg_advisory_xact_lock(hashtextextended($1, 0));

-- ProjectCardVersionsRepository.newest
-- parameters: $1 uuid
SELECT v.project_id AS "projectId", v.version, v.edited, v.derived_from AS "derivedFrom",
v.author_user_id AS "authorUserId", v.author_agent_id AS "authorAgentId", v.note, v.created_at AS "createdAt", v.content FROM project_card_versions v
     WHERE v.project_id = $1 ORDER BY v.version DESC LIMIT 1;

-- ProjectCardVersionsRepository.byVersion
-- parameters: $1 uuid, $2 integer
SELECT v.project_id AS "projectId", v.version, v.edited, v.derived_from AS "derivedFrom",
v.author_user_id AS "authorUserId", v.author_agent_id AS "authorAgentId", v.note, v.created_at AS "createdAt", v.content FROM project_card_versions v WHERE v.project_id = $1 AND v.version = $2;

-- ProjectCardVersionsRepository.page (first page)
-- parameters: $1 uuid, $2 integer, $3 bigint
SELECT v.project_id AS "projectId", v.version, v.edited, v.derived_from AS "derivedFrom",
v.author_user_id AS "authorUserId", v.author_agent_id AS "authorAgentId", v.note, v.created_at AS "createdAt" FROM project_card_versions v
     WHERE v.project_id = $1 AND ($2::int IS NULL OR v.version < $2::int)
     ORDER BY v.version DESC LIMIT $3;

-- ProjectCardVersionsRepository.page (older)
-- parameters: $1 uuid, $2 integer, $3 bigint
SELECT v.project_id AS "projectId", v.version, v.edited, v.derived_from AS "derivedFrom",
v.author_user_id AS "authorUserId", v.author_agent_id AS "authorAgentId", v.note, v.created_at AS "createdAt" FROM project_card_versions v
     WHERE v.project_id = $1 AND ($2::int IS NULL OR v.version < $2::int)
     ORDER BY v.version DESC LIMIT $3;

-- ProjectCardVersionsRepository.insert
-- parameters: $1 uuid, $2 integer, $3 jsonb, $4 text[], $5 jsonb, $6 uuid, $7 text, $8 text
INSERT INTO project_card_versions AS v (project_id, version, content, edited, derived_from,
       author_user_id, author_agent_id, note)
     VALUES ($1, $2, $3::jsonb, $4::text[], $5::jsonb, $6, $7, $8)
     RETURNING v.project_id AS "projectId", v.version, v.edited, v.derived_from AS "derivedFrom",
v.author_user_id AS "authorUserId", v.author_agent_id AS "authorAgentId", v.note, v.created_at AS "createdAt", v.content;
