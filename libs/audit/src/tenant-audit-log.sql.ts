import { quotedSchema } from '@cairn/tenancy';

/**
 * The tenant audit append (TenantAuditLog.appendMany), schema-qualified because it runs on
 * the shared pool outside any tenant transaction. In one transaction: the table lock makes
 * appenders queue (readers do not wait), entries that came through the audit queue and are
 * already in the chain are found (a redelivery), the chain's newest hash is read, and the
 * rest of the batch is inserted chained onto it, in the order given.
 */
export function tenantAuditAppendSql(schema: string): {
  lock: string;
  alreadyQueued: string;
  lastHash: string;
  insert: string;
} {
  const table = `${quotedSchema(schema)}.audit_log`;
  return {
    lock: `LOCK TABLE ${table} IN SHARE ROW EXCLUSIVE MODE`,
    // $1: the queue ids of the batch; answered from the unique partial index.
    alreadyQueued: `SELECT queue_id FROM ${table} WHERE queue_id = ANY($1::text[])`,
    // The newest entry; when retention has pruned them all, the last pruned one.
    lastHash: `SELECT coalesce((SELECT hash FROM ${table} ORDER BY id DESC LIMIT 1),
                         (SELECT hash FROM ${quotedSchema(schema)}.audit_log_checkpoint)) AS hash`,
    // $1: the rows as a JSON array, hashes already computed in that order.
    insert: `INSERT INTO ${table} (at, actor, action, target, outcome, status, request_id, details, prev_hash, hash,
           queue_id)
         SELECT r.at, r.actor, r.action, r.target, r.outcome, r.status, r."requestId", r.details,
                decode(r.prev, 'hex'), decode(r.hash, 'hex'), r."queueId"
         FROM ROWS FROM (jsonb_to_recordset($1::jsonb) AS (at timestamptz, actor text, action text, target text,
              outcome text, status integer, "requestId" text, details jsonb, prev text, hash text, "queueId" text))
         WITH ORDINALITY AS r(at, actor, action, target, outcome, status, "requestId", details, prev, hash, "queueId", n)
         ORDER BY r.n`,
  };
}
