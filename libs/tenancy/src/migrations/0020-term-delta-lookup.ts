import { type Migration } from '@cairn/db';

/**
 * The keyword ranker reads the deltas once per query lexeme (`corpus = … AND lexeme = … AND
 * scope = ANY(scopes)`). With the key ordered (corpus, scope, lexeme), a plan prepared without
 * the scopes' values (a cached generic plan) counts one index descent per possible scope and
 * priced the lookup like a scan of a 45-page table: under writes the deltas grow between folds,
 * and the scan ran once per lexeme (22 × 3,800 rows, 4 ms of a 5 ms contradiction check at 100k
 * memories, issue 22). With the lexeme before the scope, each lookup is one descent whatever the
 * scopes, and the planner keeps it on the index once the table is more than a few pages.
 */
export const termDeltaLookup: Migration = {
  version: 20,
  name: 'term-delta-lookup',
  async up(sql) {
    await sql(`CREATE INDEX term_count_deltas_lexeme ON term_count_deltas (corpus, lexeme, scope)`);
    await sql(`DROP INDEX term_count_deltas_key`);
  },
};
