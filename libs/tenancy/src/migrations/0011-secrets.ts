import { type Migration } from '@cairn/db';

/**
 * Originals of the secrets the write paths redacted (issue 12): the stored text keeps only
 * `[SECRET:<type>:<placeholder_id>]`, and this table keeps the value, sealed with the tenant's
 * data key (envelope bound to table `secrets`, row = placeholder id, field `value`). The
 * placeholder id is an HMAC of the value under a tenant key, so the same value gets the same id
 * within a tenant without the id revealing (or confirming a guess of) the value.
 *
 * One row per placeholder and writer and place: two writers of the same value each own their
 * copy, so `secret_get` can answer "is this yours" without one writer lending the other access.
 */
export const secrets: Migration = {
  version: 11,
  name: 'secrets',
  async up(sql) {
    await sql(`
      CREATE TABLE secrets (
        id uuid PRIMARY KEY,
        placeholder_id text NOT NULL,
        type text NOT NULL,
        rule_id text NOT NULL,
        value_encrypted bytea NOT NULL,
        writer_user_id uuid,
        writer_agent_id text,
        writer_token_id uuid NOT NULL,
        project_id uuid REFERENCES projects(id) ON DELETE CASCADE,
        source_table text NOT NULL,
        source_id text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await sql(`
      CREATE UNIQUE INDEX secrets_once_per_writer_and_place ON secrets
        (placeholder_id, writer_token_id, source_table, source_id)`);
  },
};
