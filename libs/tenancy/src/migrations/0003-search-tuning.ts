import { type Migration } from '@cairn/db';

/**
 * Room on each page for in-place (HOT) updates of memories: access counters and confidence
 * change often and touch no indexed column, so with free space on the page they need no new
 * index entries (HNSW and GIN entries are the expensive ones).
 */
export const searchTuning: Migration = {
  version: 3,
  name: 'search-tuning',
  async up(sql) {
    await sql(`ALTER TABLE memories SET (fillfactor = 85)`);
  },
};
