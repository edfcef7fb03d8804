import { type Migration } from '@cairn/db';

/**
 * When a knowledge-base document's retention period started (`retained_from`: indexed, or the
 * same content indexed again), so the purge can apply the tenant's current retention (its own
 * days or the installation's) to documents indexed before that retention was chosen:
 * `expires_at` becomes `retained_from` plus the tier's effective days.
 *
 * Existing rows: a document never indexed again has `expires_at - created_at` a whole number of
 * days (both were set from one transaction's now(), give or take a daylight-saving hour), and
 * started at `created_at`. One indexed again restarted at its last indexing, which is its
 * `expires_at` less the days then in force: the shipped defaults (14, 30, 365) are assumed,
 * kept between its creation and now.
 */
export const kbRetainedFrom: Migration = {
  version: 21,
  name: 'kb-retained-from',
  async up(sql) {
    await sql(`ALTER TABLE kb_documents ADD COLUMN retained_from timestamptz`);
    await sql(`
      UPDATE kb_documents SET retained_from = CASE
        WHEN abs(extract(epoch FROM expires_at - created_at) - round(extract(epoch FROM expires_at - created_at) / 86400) * 86400) <= 3600
          THEN created_at
        ELSE least(now(), greatest(created_at, expires_at - make_interval(days => CASE retention_tier
          WHEN 'external' THEN 14 WHEN 'internal' THEN 30 ELSE 365 END)))
      END`);
    await sql(
      `ALTER TABLE kb_documents ALTER COLUMN retained_from SET DEFAULT now(), ALTER COLUMN retained_from SET NOT NULL`,
    );
  },
};
