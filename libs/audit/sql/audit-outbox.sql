-- The audit outbox (cairn.audit_outbox): a state-changing tool call writes its entry in its own transaction;
-- the answer path (TenantAuditLog.appendMany) or a sweep of rows left behind (TenantAuditLog.recoverOutbox)
-- moves it into the chain under the chain lock (libs/audit/src/audit-outbox.sql.ts).

-- in the tool call's tenant transaction, just before COMMIT: $1 id, $2 tenant id, $3 schema, $4 entry
INSERT INTO cairn.audit_outbox (id, tenant_id, tenant_schema, entry)
         SELECT $1::uuid, $2::uuid, $3, $4::jsonb WHERE pg_current_xact_id_if_assigned() IS NOT NULL
         RETURNING id;

-- the sweep's tenants: $1 grace in seconds, $2 how many
SELECT tenant_schema FROM cairn.audit_outbox
         WHERE created_at < now() - make_interval(secs => $1) GROUP BY tenant_schema ORDER BY min(created_at) LIMIT $2;

-- appendMany, under the chain lock: $1 the outbox ids of the entries; those gone were swept
WITH claimed AS (DELETE FROM cairn.audit_outbox WHERE id = ANY($1::uuid[]) RETURNING id)
         SELECT id::text AS id FROM claimed;

-- recoverOutbox, under the chain lock: $1 schema, $2 grace in seconds, $3 how many
WITH swept AS (
           DELETE FROM cairn.audit_outbox WHERE id IN (
             SELECT id FROM cairn.audit_outbox
             WHERE tenant_schema = $1 AND created_at < now() - make_interval(secs => $2)
             ORDER BY created_at LIMIT $3)
           RETURNING entry, created_at)
         SELECT entry FROM swept ORDER BY created_at;

-- a deleted tenant's rows: $1 schema
DELETE FROM cairn.audit_outbox WHERE tenant_schema = $1;
