import { type Migration } from '@cairn/db';

/**
 * Duplicate candidates by index (issue 13). `GET …/memories/duplicates` looks up, per memory
 * of a page, the memories whose text is equal up to case and whitespace: this expression index
 * makes that lookup a probe instead of hashing the whole project on every request. The
 * expression must stay identical to `NORMALISED_CONTENT_SQL` in libs/memory-hygiene, or the
 * planner cannot use it.
 */
export const duplicateCandidates: Migration = {
  version: 15,
  name: 'duplicate-candidates',
  async up(sql) {
    await sql(`
      CREATE INDEX memories_normalised_content ON memories
        (md5(lower(regexp_replace(btrim(content), '\\s+', ' ', 'g'))))
        WHERE deleted_at IS NULL`);
  },
};
