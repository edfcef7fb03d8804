import { join } from 'node:path';
import { expectCommittedFile } from '@cairn/testing';
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
