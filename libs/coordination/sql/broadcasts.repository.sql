-- The statements of libs/coordination/src/broadcasts.repository.ts,
-- as tools/sql-snapshots records them: each method called with its @SqlSnapshot examples on a
-- migrated database, in a transaction rolled back. Placeholders carry the types PostgreSQL infers
-- for them, never values. Generated: `npm run snapshots` rewrites this file.

-- BroadcastsRepository.lockChannel
-- parameters: $1 text
SELECT pg_advisory_xact_lock(hashtextextended($1, 0));

-- BroadcastsRepository.key
-- parameters: $1 uuid
SELECT key_hash, key_salt, key_params, key_set_at FROM broadcast_channels
WHERE project_id = $1 AND key_hash IS NOT NULL;

-- BroadcastsRepository.setKey
-- parameters: $1 uuid, $2 bytea, $3 bytea, $4 jsonb
INSERT INTO broadcast_channels (project_id, key_hash, key_salt, key_params, key_set_at)
VALUES ($1, $2, $3, $4::jsonb, now())
ON CONFLICT (project_id) DO UPDATE
  SET key_hash = EXCLUDED.key_hash, key_salt = EXCLUDED.key_salt, key_params = EXCLUDED.key_params,
      key_set_at = EXCLUDED.key_set_at
RETURNING key_set_at;

-- BroadcastsRepository.clearKey
-- parameters: $1 uuid
WITH cleared AS (
  UPDATE broadcast_channels SET key_hash = NULL, key_salt = NULL, key_params = NULL, key_set_at = NULL
  WHERE project_id = $1 AND key_hash IS NOT NULL RETURNING 1)
SELECT count(*)::int AS n FROM cleared;

-- BroadcastsRepository.channelHead
-- parameters: $1 uuid
SELECT c.key_hash, c.key_salt, c.key_params, c.key_set_at, l.seq::text AS last_seq, l.hash AS last_hash
FROM (SELECT 1) one
LEFT JOIN broadcast_channels c ON c.project_id = $1 AND c.key_hash IS NOT NULL
LEFT JOIN LATERAL (
  SELECT b.seq, b.hash FROM broadcasts b WHERE b.project_id = $1 ORDER BY b.seq DESC LIMIT 1) l ON true;

-- BroadcastsRepository.insert
-- parameters: $1 uuid, $2 bigint, $3 text, $4 text, $5 text[], $6 bigint, $7 text, $8 uuid, $9 text,
--   $10 uuid, $11 timestamp with time zone, $12 bytea, $13 bytea
INSERT INTO broadcasts AS b (project_id, seq, type, summary, files, reply_to, assignee, author_user_id,
                                  author_agent_id, author_token_id, at, prev_hash, hash)
     VALUES ($1, $2, $3, $4, $5::text[], $6, $7, $8, $9, $10, $11, $12, $13)
     RETURNING b.seq::text AS seq, b.type, b.summary, b.files, b.reply_to::text AS reply_to, b.assignee,
b.author_user_id, b.author_agent_id, b.author_token_id, b.at, b.prev_hash, b.hash;

-- BroadcastsRepository.page
-- parameters: $1 uuid, $2 text, $3 bigint, $4 text[], $5 text, $6 boolean, $7 bigint
SELECT b.seq::text AS seq, b.type, b.summary, b.files, b.reply_to::text AS reply_to, b.assignee,
b.author_user_id, b.author_agent_id, b.author_token_id, b.at, b.prev_hash, b.hash, (a.seq IS NOT NULL) AS acknowledged
     FROM broadcasts b
     LEFT JOIN broadcast_acks a ON a.project_id = b.project_id AND a.seq = b.seq AND a.agent_key = $2
     WHERE b.project_id = $1 AND b.seq > $3
       AND ($4::text[] IS NULL OR b.type = ANY($4::text[]))
       AND ($5::text IS NULL OR b.assignee = $5)
       AND (NOT $6 OR a.seq IS NULL)
     ORDER BY b.seq
     LIMIT $7;

-- BroadcastsRepository.head
-- parameters: $1 uuid
SELECT coalesce(max(seq), 0)::text AS head FROM broadcasts WHERE project_id = $1;

-- BroadcastsRepository.acknowledge
-- parameters: $1 uuid, $2 text, $3 bigint[]
WITH existing AS (SELECT seq FROM broadcasts WHERE project_id = $1 AND seq = ANY($3::bigint[])),
     recorded AS (
       INSERT INTO broadcast_acks (project_id, seq, agent_key)
       SELECT $1, seq, $2 FROM existing
       ON CONFLICT DO NOTHING RETURNING seq)
SELECT (SELECT array_agg(seq::text) FROM existing) AS existing,
       (SELECT array_agg(seq::text) FROM recorded) AS recorded;

-- BroadcastsRepository.chainPage
-- parameters: $1 uuid, $2 bigint, $3 bigint
SELECT b.seq::text AS seq, b.type, b.summary, b.files, b.reply_to::text AS reply_to, b.assignee,
b.author_user_id, b.author_agent_id, b.author_token_id, b.at, b.prev_hash, b.hash FROM broadcasts b WHERE b.project_id = $1 AND b.seq > $2 ORDER BY b.seq LIMIT $3;

-- BroadcastsRepository.unacknowledgedFor
-- parameters: $1 uuid, $2 text, $3 text, $4 bigint
SELECT b.seq::text AS seq, b.type, b.summary, b.files, b.reply_to::text AS reply_to, b.assignee,
b.author_user_id, b.author_agent_id, b.author_token_id, b.at, b.prev_hash, b.hash, count(*) OVER ()::text AS total
     FROM broadcasts b
     WHERE b.project_id = $1 AND b.assignee = $2
       AND NOT EXISTS (SELECT 1 FROM broadcast_acks a
                       WHERE a.project_id = b.project_id AND a.seq = b.seq AND a.agent_key = $3)
     ORDER BY b.seq DESC
     LIMIT $4;

-- BroadcastsRepository.latestStatus
-- parameters: $1 uuid, $2 bigint, $3 bigint
SELECT * FROM (
       SELECT DISTINCT ON (author) * FROM (
         SELECT b.seq::text AS seq, b.type, b.summary, b.files, b.reply_to::text AS reply_to, b.assignee,
b.author_user_id, b.author_agent_id, b.author_token_id, b.at, b.prev_hash, b.hash,
                coalesce('agent:' || b.author_agent_id, 'user:' || b.author_user_id::text,
                         'token:' || b.author_token_id::text) AS author
         FROM broadcasts b WHERE b.project_id = $1 AND b.type = 'STATUS'
         ORDER BY b.seq DESC LIMIT $2) recent
       ORDER BY author, seq::bigint DESC) latest
     ORDER BY seq::bigint DESC
     LIMIT $3;
