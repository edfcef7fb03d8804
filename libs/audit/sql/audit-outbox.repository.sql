-- The statements of libs/audit/src/audit-outbox.repository.ts,
-- as tools/sql-snapshots records them: each method called with its @SqlSnapshot examples on a
-- migrated database, in a transaction rolled back. Placeholders carry the types PostgreSQL infers
-- for them, never values. Generated: `npm run snapshots` rewrites this file.

-- AuditOutboxRepository.reserve
-- parameters: $1 uuid, $2 uuid, $3 text, $4 jsonb
INSERT INTO cairn.audit_outbox (id, tenant_id, tenant_schema, entry)
SELECT $1::uuid, $2::uuid, $3, $4::jsonb WHERE pg_current_xact_id_if_assigned() IS NOT NULL
RETURNING id;

-- AuditOutboxRepository.schemasLeftBehind
-- parameters: $1 double precision, $2 bigint
SELECT tenant_schema FROM cairn.audit_outbox
WHERE created_at < now() - make_interval(secs => $1) GROUP BY tenant_schema ORDER BY min(created_at) LIMIT $2;

-- AuditOutboxRepository.discard
-- parameters: $1 text
DELETE FROM cairn.audit_outbox WHERE tenant_schema = $1;

-- AuditOutboxRepository.carry, no snapshot: runs on the two clusters of a move, through the runners
--   TenantMover hands its steps
