-- Tenant audit append: one transaction per tenant per batch (AuditBuffer draining the audit queue of MCP
-- tool calls, AuditTrail for admin actions and denials) on the shared pool (TenantAuditLog.appendMany,
-- libs/audit/src/tenant-audit-log.repository.ts). Rendered here for the tenant schema t_example.

-- appenders queue on the table lock; readers do not wait
LOCK TABLE "t_example".audit_log IN SHARE ROW EXCLUSIVE MODE;

-- $1 = the queue ids of the batch: those already in the chain (a redelivery) are not written again
SELECT queue_id FROM "t_example".audit_log WHERE queue_id = ANY($1::text[]);

-- the hash the batch chains onto: the newest entry, else the retention checkpoint
SELECT coalesce((SELECT hash FROM "t_example".audit_log ORDER BY id DESC LIMIT 1),
                         (SELECT hash FROM "t_example".audit_log_checkpoint)) AS hash;

-- $1 = the batch as a JSON array, hashes computed in order; inserted in that order
INSERT INTO "t_example".audit_log (at, actor, action, target, outcome, status, request_id, details, prev_hash, hash,
           queue_id)
         SELECT r.at, r.actor, r.action, r.target, r.outcome, r.status, r."requestId", r.details,
                decode(r.prev, 'hex'), decode(r.hash, 'hex'), r."queueId"
         FROM ROWS FROM (jsonb_to_recordset($1::jsonb) AS (at timestamptz, actor text, action text, target text,
              outcome text, status integer, "requestId" text, details jsonb, prev text, hash text, "queueId" text))
         WITH ORDINALITY AS r(at, actor, action, target, outcome, status, "requestId", details, prev, hash, "queueId", n)
         ORDER BY r.n;
