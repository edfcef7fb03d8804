import { type Migration } from '@cairn/db';

/**
 * The tenant's own audit trail: every MCP tool call and every administrative action on the
 * tenant, append-only (triggers refuse UPDATE, DELETE and TRUNCATE) and hash-chained: each
 * row's hash covers its fields and the previous row's hash, and no two rows may follow the
 * same predecessor, so a removed, altered or forked entry shows when the chain is verified.
 */
export const auditLog: Migration = {
  version: 6,
  name: 'audit-log',
  async up(sql) {
    await sql(`
      CREATE TABLE audit_log (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        at timestamptz NOT NULL,
        actor text NOT NULL,
        action text NOT NULL,
        target text,
        outcome text NOT NULL CHECK (outcome IN ('success', 'denied', 'failure')),
        status integer,
        request_id text,
        details jsonb,
        prev_hash bytea NOT NULL UNIQUE CHECK (length(prev_hash) = 32),
        hash bytea NOT NULL UNIQUE CHECK (length(hash) = 32)
      )`);
    await sql(`
      CREATE FUNCTION audit_log_refuse_change() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        RAISE EXCEPTION 'audit_log is append-only' USING ERRCODE = 'insufficient_privilege';
      END $$`);
    await sql(`
      CREATE TRIGGER audit_log_append_only BEFORE UPDATE OR DELETE ON audit_log
      FOR EACH ROW EXECUTE FUNCTION audit_log_refuse_change()`);
    await sql(`
      CREATE TRIGGER audit_log_no_truncate BEFORE TRUNCATE ON audit_log
      FOR EACH STATEMENT EXECUTE FUNCTION audit_log_refuse_change()`);
  },
};
