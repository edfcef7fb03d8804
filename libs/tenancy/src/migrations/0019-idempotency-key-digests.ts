import { type Migration } from '@cairn/db';

/**
 * Idempotency keys are stored as their SHA-256 in hex (issue 22): a client may put anything in
 * one, a secret included, and a key is only ever compared. The keys of the last 24 hours are
 * digested here, so a retry across the upgrade still finds its first store.
 */
export const idempotencyKeyDigests: Migration = {
  version: 19,
  name: 'idempotency-key-digests',
  async up(sql) {
    await sql(`UPDATE memory_idempotency_keys SET key = encode(sha256(convert_to(key, 'UTF8')), 'hex')`);
  },
};
