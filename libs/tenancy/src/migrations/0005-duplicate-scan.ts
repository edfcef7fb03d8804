import { type Migration } from '@cairn/db';

/** Duplicate candidates found by the periodic scan, listed without recomputing them. */
export const duplicateScan: Migration = {
  version: 5,
  name: 'duplicate-scan',
  async up(sql) {
    await sql(`
      CREATE TABLE memory_duplicate_candidates (
        project_id uuid NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
        a uuid NOT NULL REFERENCES memories (id) ON DELETE CASCADE,
        b uuid NOT NULL REFERENCES memories (id) ON DELETE CASCADE,
        similarity real NOT NULL,
        reason text NOT NULL CHECK (reason IN ('same_content', 'similar_vector')),
        found_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (project_id, a, b),
        CHECK (a < b)
      )`);
  },
};
