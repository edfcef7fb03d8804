-- The statements of libs/audit/src/tenant-audit-log.repository.ts,
-- as tools/sql-snapshots records them: each method called with its @SqlSnapshot examples on a
-- migrated database, in a transaction rolled back. Placeholders carry the types PostgreSQL infers
-- for them, never values. Generated: `npm run snapshots` rewrites this file.

-- TenantAuditLog.appendMany (one entry from the audit queue, one from the outbox)
BEGIN;

LOCK TABLE "t_example".audit_log IN SHARE ROW EXCLUSIVE MODE;

-- parameters: $1 text[]
SELECT queue_id FROM "t_example".audit_log WHERE queue_id = ANY($1::text[]);

-- parameters: $1 uuid[]
WITH claimed AS (DELETE FROM cairn.audit_outbox WHERE id = ANY($1::uuid[]) RETURNING id)
SELECT id::text AS id FROM claimed;

SELECT coalesce((SELECT hash FROM "t_example".audit_log ORDER BY id DESC LIMIT 1),
(SELECT hash FROM "t_example".audit_log_checkpoint)) AS hash;

-- parameters: $1 jsonb
INSERT INTO "t_example".audit_log (at, actor, action, target, outcome, status, request_id, details, prev_hash, hash,
  queue_id)
SELECT r.at, r.actor, r.action, r.target, r.outcome, r.status, r."requestId", r.details,
       decode(r.prev, 'hex'), decode(r.hash, 'hex'), r."queueId"
FROM ROWS FROM (jsonb_to_recordset($1::jsonb) AS (at timestamptz, actor text, action text, target text,
     outcome text, status integer, "requestId" text, details jsonb, prev text, hash text, "queueId" text))
WITH ORDINALITY AS r(at, actor, action, target, outcome, status, "requestId", details, prev, hash, "queueId", n)
ORDER BY r.n;

COMMIT;

-- TenantAuditLog.recoverOutbox
BEGIN;

LOCK TABLE "t_example".audit_log IN SHARE ROW EXCLUSIVE MODE;

-- parameters: $1 text, $2 double precision, $3 bigint
WITH swept AS (
  DELETE FROM cairn.audit_outbox WHERE id IN (
    SELECT id FROM cairn.audit_outbox
    WHERE tenant_schema = $1 AND created_at < now() - make_interval(secs => $2)
    ORDER BY created_at LIMIT $3)
  RETURNING entry, created_at)
SELECT entry FROM swept ORDER BY created_at;

SELECT coalesce((SELECT hash FROM "t_example".audit_log ORDER BY id DESC LIMIT 1),
(SELECT hash FROM "t_example".audit_log_checkpoint)) AS hash;

-- parameters: $1 jsonb
INSERT INTO "t_example".audit_log (at, actor, action, target, outcome, status, request_id, details, prev_hash, hash,
  queue_id)
SELECT r.at, r.actor, r.action, r.target, r.outcome, r.status, r."requestId", r.details,
       decode(r.prev, 'hex'), decode(r.hash, 'hex'), r."queueId"
FROM ROWS FROM (jsonb_to_recordset($1::jsonb) AS (at timestamptz, actor text, action text, target text,
     outcome text, status integer, "requestId" text, details jsonb, prev text, hash text, "queueId" text))
WITH ORDINALITY AS r(at, actor, action, target, outcome, status, "requestId", details, prev, hash, "queueId", n)
ORDER BY r.n;

COMMIT;

-- TenantAuditLog.list
-- parameters: $1 bigint, $2 bigint, $3 text, $4 text, $5 text, $6 timestamp with time zone,
--   $7 timestamp with time zone
SELECT a.id::text AS id, at, actor, action, target, outcome, status, request_id, details, prev_hash, hash FROM "t_example".audit_log a
WHERE ($1::bigint IS NULL OR a.id < $1::bigint) AND ($3::text IS NULL OR a.actor = $3::text OR starts_with(a.actor, $3::text || '/')) AND ($4::text IS NULL OR a.action = $4::text OR (right($4::text, 1) = '.' AND starts_with(a.action, $4::text))) AND ($5::text IS NULL OR a.outcome = $5::text) AND ($6::timestamptz IS NULL OR a.at >= $6::timestamptz) AND ($7::timestamptz IS NULL OR a.at < $7::timestamptz) ORDER BY a.id DESC LIMIT $2;

-- TenantAuditLog.verify
SELECT through_id::text AS through_id, hash, entries_pruned FROM "t_example".audit_log_checkpoint;

-- parameters: $1 bigint, $2 bigint
SELECT a.id::text AS id, at, actor, action, target, outcome, status, request_id, details, prev_hash, hash FROM "t_example".audit_log a WHERE a.id > $1::bigint ORDER BY a.id LIMIT $2;

-- TenantAuditLog.prune
BEGIN;

LOCK TABLE "t_example".audit_log IN SHARE ROW EXCLUSIVE MODE;

SELECT set_config('cairn.audit_retention', 'on', true);

-- parameters: $1 timestamp with time zone, $2 bigint
SELECT a.id::text AS id, a.hash FROM "t_example".audit_log a
WHERE a.id = (SELECT max(id) FROM (SELECT id FROM "t_example".audit_log WHERE at < $1 ORDER BY id LIMIT $2) oldest);

-- parameters: $1 bigint
WITH gone AS (DELETE FROM "t_example".audit_log WHERE id <= $1::bigint RETURNING 1) SELECT count(*)::int AS n FROM gone;

-- parameters: $1 bigint, $2 bytea, $3 bigint
INSERT INTO "t_example".audit_log_checkpoint (through_id, hash, entries_pruned, pruned_at)
VALUES ($1::bigint, $2, $3, now())
ON CONFLICT (singleton) DO UPDATE SET through_id = EXCLUDED.through_id, hash = EXCLUDED.hash,
  entries_pruned = audit_log_checkpoint.entries_pruned + EXCLUDED.entries_pruned, pruned_at = now();

COMMIT;
