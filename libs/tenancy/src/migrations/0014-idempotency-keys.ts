import { type Migration } from '@cairn/db';

/**
 * Client idempotency keys for memory_store / `POST …/memories` (issue 13): a client whose
 * answer was lost (gateway killed mid-call) retries with the same key and gets the memory its
 * first call stored instead of a duplicate. One row per (project, token, key), written in the
 * transaction that stores the memory; the maintenance purge removes rows after 24 hours.
 *
 * The reference to the memory is deferred: the key is claimed first in the transaction (so a
 * concurrent repeat waits on it), before the memory row exists.
 */
export const idempotencyKeys: Migration = {
  version: 14,
  name: 'idempotency-keys',
  async up(sql) {
    await sql(`
      CREATE TABLE memory_idempotency_keys (
        project_id uuid NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
        token_id text NOT NULL,
        key text NOT NULL,
        payload_digest text NOT NULL,
        memory_id uuid NOT NULL REFERENCES memories (id) ON DELETE CASCADE DEFERRABLE INITIALLY DEFERRED,
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (project_id, token_id, key)
      )`);
    await sql(`CREATE INDEX memory_idempotency_keys_by_age ON memory_idempotency_keys (created_at)`);
  },
};
