import { type Migration } from '@cairn/db';

/**
 * Tool-call audit entries reach the chain through a durable Redis stream (AuditBuffer): each
 * row written from it records its stream entry id, unique, so an entry delivered twice (a
 * drainer stopped after its commit, before it removed the entry from the stream) is
 * recognised inside the chain's append lock and written once. Not part of the hashed fields:
 * it says how the entry travelled, not what happened. Rows written directly (admin actions,
 * denials) have none.
 */
export const auditQueue: Migration = {
  version: 10,
  name: 'audit-queue',
  async up(sql) {
    await sql(`ALTER TABLE audit_log ADD COLUMN queue_id text`);
    await sql(`CREATE UNIQUE INDEX audit_log_queue_id ON audit_log (queue_id) WHERE queue_id IS NOT NULL`);
  },
};
