-- The statements of libs/working-memory/src/agent-sessions.repository.ts,
-- as tools/sql-snapshots records them: each method called with its @SqlSnapshot examples on a
-- migrated database, in a transaction rolled back. Placeholders carry the types PostgreSQL infers
-- for them, never values. Generated: `npm run snapshots` rewrites this file.

-- AgentSessionsRepository.lastSeen
-- parameters: $1 uuid, $2 text
SELECT last_seen_at AS at FROM agent_sessions WHERE project_id = $1 AND agent_key = $2;

-- AgentSessionsRepository.recordVisit
-- parameters: $1 uuid, $2 text
INSERT INTO agent_sessions (project_id, agent_key, last_seen_at) VALUES ($1, $2, now())
ON CONFLICT (project_id, agent_key) DO UPDATE SET last_seen_at = excluded.last_seen_at
RETURNING last_seen_at AS at;
