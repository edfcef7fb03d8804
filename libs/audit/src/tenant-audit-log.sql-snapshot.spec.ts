import { join } from 'node:path';
import { expectCommittedFile } from '@cairn/testing';
import { AUDIT_OUTBOX_SQL } from './audit-outbox.sql';
import { tenantAuditAppendSql } from './tenant-audit-log.sql';

/** The tenant audit append as TenantAuditLog.appendMany sends it (libs/audit/sql/tenant-audit-append.sql). */
describe('tenant audit append SQL', () => {
  it('matches the committed snapshot', () => {
    // Any tenant: the schema name is the only part that varies.
    const sql = tenantAuditAppendSql('t_example');
    const text = [
      '-- Tenant audit append: one transaction per tenant per batch (AuditBuffer draining the audit queue of MCP',
      '-- tool calls, AuditTrail for admin actions and denials) on the shared pool (TenantAuditLog.appendMany,',
      '-- libs/audit/src/tenant-audit-log.repository.ts). Rendered here for the tenant schema t_example.',
      '',
      '-- appenders queue on the table lock; readers do not wait',
      `${sql.lock};`,
      '',
      '-- $1 = the queue ids of the batch: those already in the chain (a redelivery) are not written again',
      `${sql.alreadyQueued};`,
      '',
      '-- the hash the batch chains onto: the newest entry, else the retention checkpoint',
      `${sql.lastHash};`,
      '',
      '-- $1 = the batch as a JSON array, hashes computed in order; inserted in that order',
      `${sql.insert};`,
    ].join('\n');
    expectCommittedFile(join(__dirname, '..', 'sql', 'tenant-audit-append.sql'), text);
  });
});

/** The audit outbox's statements (AuditOutboxRepository, TenantAuditLog) (libs/audit/sql/audit-outbox.sql). */
describe('audit outbox SQL', () => {
  it('matches the committed snapshot', () => {
    const text = [
      '-- The audit outbox (cairn.audit_outbox): a state-changing tool call writes its entry in its own transaction;',
      '-- the answer path (TenantAuditLog.appendMany) or a sweep of rows left behind (TenantAuditLog.recoverOutbox)',
      '-- moves it into the chain under the chain lock (libs/audit/src/audit-outbox.sql.ts).',
      '',
      "-- in the tool call's tenant transaction, just before COMMIT: $1 id, $2 tenant id, $3 schema, $4 entry",
      `${AUDIT_OUTBOX_SQL.reserve};`,
      '',
      "-- the sweep's tenants: $1 grace in seconds, $2 how many",
      `${AUDIT_OUTBOX_SQL.schemasLeftBehind};`,
      '',
      '-- appendMany, under the chain lock: $1 the outbox ids of the entries; those gone were swept',
      `${AUDIT_OUTBOX_SQL.claim};`,
      '',
      '-- recoverOutbox, under the chain lock: $1 schema, $2 grace in seconds, $3 how many',
      `${AUDIT_OUTBOX_SQL.sweep};`,
      '',
      "-- a deleted tenant's rows: $1 schema",
      `${AUDIT_OUTBOX_SQL.discard};`,
    ].join('\n');
    expectCommittedFile(join(__dirname, '..', 'sql', 'audit-outbox.sql'), text);
  });
});
