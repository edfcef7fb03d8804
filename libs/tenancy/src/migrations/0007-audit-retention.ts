import { type Migration } from '@cairn/db';

/**
 * Retention for the audit log without losing verifiability: the purge deletes the oldest
 * entries (a prefix of the chain) and records, in a one-row checkpoint, the id and hash of
 * the last entry it removed; verification then starts from that hash. Deleting is allowed
 * only inside a transaction that has set `cairn.audit_retention` (what the purge does), and
 * only the purge writes the checkpoint; UPDATE and TRUNCATE stay refused.
 */
export const auditRetention: Migration = {
  version: 7,
  name: 'audit-retention',
  async up(sql) {
    await sql(`
      CREATE TABLE audit_log_checkpoint (
        singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton),
        through_id bigint NOT NULL,
        hash bytea NOT NULL CHECK (length(hash) = 32),
        entries_pruned bigint NOT NULL,
        pruned_at timestamptz NOT NULL
      )`);
    await sql(`
      CREATE OR REPLACE FUNCTION audit_log_refuse_change() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF current_setting('cairn.audit_retention', true) = 'on'
           AND (TG_OP = 'DELETE' OR TG_TABLE_NAME = 'audit_log_checkpoint') THEN
          RETURN COALESCE(NEW, OLD);
        END IF;
        RAISE EXCEPTION '% is append-only', TG_TABLE_NAME USING ERRCODE = 'insufficient_privilege';
      END $$`);
    await sql(`
      CREATE TRIGGER audit_log_checkpoint_guard BEFORE INSERT OR UPDATE OR DELETE ON audit_log_checkpoint
      FOR EACH ROW EXECUTE FUNCTION audit_log_refuse_change()`);
  },
};
