-- The statements of libs/working-memory/src/session-events.repository.ts,
-- as tools/sql-snapshots records them: each method called with its @SqlSnapshot examples on a
-- migrated database, in a transaction rolled back. Placeholders carry the types PostgreSQL infers
-- for them, never values. Generated: `npm run snapshots` rewrites this file.

-- SessionEventsRepository.insert
-- parameters: $1 uuid, $2 uuid, $3 text, $4 text, $5 text, $6 jsonb
INSERT INTO session_events (id, project_id, agent_key, kind, summary, details, created_at)
VALUES ($1, $2, $3, $4, $5, $6::jsonb, date_trunc('milliseconds', clock_timestamp()))
ON CONFLICT (id) DO NOTHING
RETURNING id, kind, summary, details, agent_key AS agent, created_at AS "createdAt";

-- SessionEventsRepository.findById
-- parameters: $1 uuid, $2 uuid
SELECT id, kind, summary, details, agent_key AS agent, created_at AS "createdAt" FROM session_events WHERE project_id = $1 AND id = $2;

-- SessionEventsRepository.recent
-- parameters: $1 uuid, $2 timestamp with time zone, $3 text, $4 bigint, $5 uuid
SELECT id, kind, summary, details, agent_key AS agent, created_at AS "createdAt" FROM session_events
WHERE project_id = $1 AND ($2::timestamptz IS NULL OR created_at > $2) AND ($3::text IS NULL OR kind = $3)
  AND ($5::uuid IS NULL
       OR (created_at, id) < (SELECT created_at, id FROM session_events WHERE project_id = $1 AND id = $5))
ORDER BY created_at DESC, id DESC
LIMIT $4;

-- SessionEventsRepository.countSince
-- parameters: $1 uuid, $2 timestamp with time zone
SELECT count(*)::int AS n FROM session_events WHERE project_id = $1 AND created_at > $2;
