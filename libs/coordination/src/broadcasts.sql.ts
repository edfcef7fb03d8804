/**
 * The coordination channel's hot statements (a post; a page read), named here and shown, as the
 * repository sends them, in libs/coordination/sql/broadcasts.repository.sql.
 * Unqualified names: they run inside a tenant transaction, on the tenant's search path.
 */

const COLUMNS = `b.seq::text AS seq, b.type, b.summary, b.files, b.reply_to::text AS reply_to, b.assignee,
  b.author_user_id, b.author_agent_id, b.author_token_id, b.at, b.prev_hash, b.hash`;

export const BROADCAST_SQL = {
  columns: COLUMNS,
  // $1: 'cairn.broadcasts:<project id>'. Held until the transaction ends.
  lock: `SELECT pg_advisory_xact_lock(hashtextextended($1, 0))`,
  // $1: project id. The key (if set) and the newest link, in one round trip, after the lock.
  channelHead: `SELECT c.key_hash, c.key_salt, c.key_params, c.key_set_at, l.seq::text AS last_seq, l.hash AS last_hash
       FROM (SELECT 1) one
       LEFT JOIN broadcast_channels c ON c.project_id = $1 AND c.key_hash IS NOT NULL
       LEFT JOIN LATERAL (
         SELECT b.seq, b.hash FROM broadcasts b WHERE b.project_id = $1 ORDER BY b.seq DESC LIMIT 1) l ON true`,
  // $1..$13: the message's fields, its previous hash and its hash.
  insert: `INSERT INTO broadcasts AS b (project_id, seq, type, summary, files, reply_to, assignee, author_user_id,
                                    author_agent_id, author_token_id, at, prev_hash, hash)
       VALUES ($1, $2, $3, $4, $5::text[], $6, $7, $8, $9, $10, $11, $12, $13)
       RETURNING ${COLUMNS}`,
  // $1 project id, $2 the reader's agent key, $3 after seq, $4 types or null, $5 assignee or null,
  // $6 only unacknowledged, $7 limit + 1.
  page: `SELECT ${COLUMNS}, (a.seq IS NOT NULL) AS acknowledged
       FROM broadcasts b
       LEFT JOIN broadcast_acks a ON a.project_id = b.project_id AND a.seq = b.seq AND a.agent_key = $2
       WHERE b.project_id = $1 AND b.seq > $3
         AND ($4::text[] IS NULL OR b.type = ANY($4::text[]))
         AND ($5::text IS NULL OR b.assignee = $5)
         AND (NOT $6 OR a.seq IS NULL)
       ORDER BY b.seq
       LIMIT $7`,
} as const;
