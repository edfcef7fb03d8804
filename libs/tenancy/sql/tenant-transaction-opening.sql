-- The first statement of every tenant transaction (TenantConnections.transaction,
-- libs/tenancy/src/tenant-connections.repository.ts): the move lock and the transaction-local
-- settings in one round trip. Placement on (DATABASE_CLUSTERS set) adds the lock; `unfrozen` is
-- false while TenantMover holds it or waits for it, and the transaction then answers 503.
-- $1 = the move lock's key, "cairn.tenant_move:<tenant id>", when there is a lock; then each setting's name and value.

-- placement on, the tenant's search path (every TenantTransaction.run)
SELECT pg_try_advisory_xact_lock_shared(hashtextextended($1, 0)) AS unfrozen, set_config($2, $3, true);

-- placement on, the search path and a semantic recall's hnsw.iterative_scan and hnsw.ef_search
SELECT pg_try_advisory_xact_lock_shared(hashtextextended($1, 0)) AS unfrozen, set_config($2, $3, true), set_config($4, $5, true), set_config($6, $7, true);

-- placement on, no settings (the audit chain, outside TenantTransaction)
SELECT pg_try_advisory_xact_lock_shared(hashtextextended($1, 0)) AS unfrozen;

-- placement off, the search path (without settings nothing is sent)
SELECT set_config($1, $2, true);

-- placement off, two settings; also how a nested TenantTransaction.run adds its own
SELECT set_config($1, $2, true), set_config($3, $4, true);

-- after a failure on a missing name: is the schema on this cluster (or was the tenant deleted, or moved away)?
SELECT 1 FROM pg_namespace WHERE nspname = $1;
