-- The statements of libs/audit/src/platform-audit.repository.ts,
-- as tools/sql-snapshots records them: each method called with its @SqlSnapshot examples on a
-- migrated database, in a transaction rolled back. Placeholders carry the types PostgreSQL infers
-- for them, never values. Generated: `npm run snapshots` rewrites this file.

-- PlatformAuditRepository.append
-- parameters: $1 text, $2 uuid, $3 text, $4 text, $5 text, $6 integer, $7 text, $8 jsonb
INSERT INTO cairn.platform_audit (actor, tenant_id, action, target, outcome, status, request_id, details)
VALUES ($1, $2, $3, $4, $5, $6, $7, $8);

-- PlatformAuditRepository.appendMany
-- parameters: $1 jsonb
INSERT INTO cairn.platform_audit (actor, tenant_id, action, target, outcome, status, request_id, details)
SELECT actor, tenant_id, action, target, outcome, status, request_id, details
FROM jsonb_to_recordset($1::jsonb) AS e(actor text, tenant_id uuid, action text, target text, outcome text,
                                         status integer, request_id text, details jsonb);

-- PlatformAuditRepository.list
-- parameters: $1 uuid, $2 bigint, $3 bigint, $4 text, $5 text, $6 text, $7 timestamp with time zone,
--   $8 timestamp with time zone
SELECT a.id::text AS id, at, actor, tenant_id, action, target, outcome, status, request_id, details
FROM cairn.platform_audit a
WHERE ($1::uuid IS NULL OR tenant_id = $1::uuid) AND ($2::bigint IS NULL OR a.id < $2::bigint)
  AND ($4::text IS NULL OR a.actor = $4::text OR starts_with(a.actor, $4::text || '/')) AND ($5::text IS NULL OR a.action = $5::text OR (right($5::text, 1) = '.' AND starts_with(a.action, $5::text))) AND ($6::text IS NULL OR a.outcome = $6::text) AND ($7::timestamptz IS NULL OR a.at >= $7::timestamptz) AND ($8::timestamptz IS NULL OR a.at < $8::timestamptz)
ORDER BY a.id DESC LIMIT $3;
