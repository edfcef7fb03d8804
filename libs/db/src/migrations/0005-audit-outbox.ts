import { type Migration } from '../migration.types';

/**
 * The audit outbox (@cairn/audit): a state-changing MCP tool call writes its audit entry here in
 * the same transaction as its change, so a committed write has its entry even when the replica
 * dies before answering. The replica's answer path moves the entry into the tenant's chained
 * audit log with the call's outcome (deleting the row in the chain's append transaction); a row
 * nobody moved within a grace period (its replica died) is written by whichever replica sweeps
 * first. In the control schema, so one statement finds the rows left behind for every tenant.
 */
export const auditOutbox: Migration = {
  version: 5,
  name: 'audit-outbox',
  async up(sql) {
    await sql(`
      CREATE TABLE cairn.audit_outbox (
        id uuid PRIMARY KEY,
        tenant_id uuid NOT NULL REFERENCES cairn.tenants (id) ON DELETE CASCADE,
        tenant_schema text NOT NULL,
        entry jsonb NOT NULL,
        created_at timestamptz NOT NULL DEFAULT clock_timestamp()
      )`);
    // The sweep's work list: the oldest rows first.
    await sql(`CREATE INDEX audit_outbox_created ON cairn.audit_outbox (created_at)`);
  },
};
