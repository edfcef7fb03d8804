/**
 * The audit outbox's statements (cairn.audit_outbox, control migration 5). `reserve` runs in the
 * tool call's own tenant transaction, just before its COMMIT; the others in the chain's append
 * transaction (TenantAuditLog), under the audit_log lock, so the row and the entry it becomes
 * never both exist, and the entry is written once whoever gets there first.
 */
export const AUDIT_OUTBOX_SQL = {
  // $1 id, $2 tenant id, $3 tenant schema, $4 the entry as JSON. Only when the transaction has
  // written something (it has a transaction id): a call that changed nothing needs no outbox row.
  reserve: `INSERT INTO cairn.audit_outbox (id, tenant_id, tenant_schema, entry)
         SELECT $1::uuid, $2::uuid, $3, $4::jsonb WHERE pg_current_xact_id_if_assigned() IS NOT NULL
         RETURNING id`,
  // $1 the grace in seconds, $2 how many schemas: tenants with rows nobody moved in time.
  schemasLeftBehind: `SELECT tenant_schema FROM cairn.audit_outbox
         WHERE created_at < now() - make_interval(secs => $1) GROUP BY tenant_schema ORDER BY min(created_at) LIMIT $2`,
  // $1 the outbox ids of the entries being appended: those still there (the rest were swept).
  // Wrapped in a SELECT, which the driver answers with the rows alone.
  claim: `WITH claimed AS (DELETE FROM cairn.audit_outbox WHERE id = ANY($1::uuid[]) RETURNING id)
         SELECT id::text AS id FROM claimed`,
  // $1 the tenant schema, $2 the grace in seconds, $3 how many: the rows of a replica that died,
  // in the order they were written.
  sweep: `WITH swept AS (
           DELETE FROM cairn.audit_outbox WHERE id IN (
             SELECT id FROM cairn.audit_outbox
             WHERE tenant_schema = $1 AND created_at < now() - make_interval(secs => $2)
             ORDER BY created_at LIMIT $3)
           RETURNING entry, created_at)
         SELECT entry FROM swept ORDER BY created_at`,
  // $1 the tenant schema: its rows, on the cluster a move takes it from (TenantMover), as JSON.
  rowsOfSchema: `SELECT coalesce(jsonb_agg(o), '[]'::jsonb) AS rows FROM cairn.audit_outbox o WHERE tenant_schema = $1`,
  // $1 those rows as JSON: written on the cluster the move takes the tenant to; a rerun adds nothing.
  insertRows: `INSERT INTO cairn.audit_outbox (id, tenant_id, tenant_schema, entry, created_at)
         SELECT id, tenant_id, tenant_schema, entry, created_at
           FROM jsonb_to_recordset($1::jsonb) AS r(id uuid, tenant_id uuid, tenant_schema text, entry jsonb, created_at timestamptz)
         ON CONFLICT (id) DO NOTHING`,
  // $1 the ids carried: removed from the source once the target has them.
  deleteIds: `DELETE FROM cairn.audit_outbox WHERE id = ANY($1::uuid[])`,
  // $1 the tenant schema: the rows of a tenant whose schema is gone.
  discard: `DELETE FROM cairn.audit_outbox WHERE tenant_schema = $1`,
} as const;
