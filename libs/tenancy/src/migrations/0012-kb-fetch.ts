import { type Migration } from '@cairn/db';

/**
 * `kb_fetch`: a document keeps what its fetch found (the URL that answered, the
 * prompt-injection patterns its text matches) in `metadata`, and each project's fetches are
 * counted per UTC day in `kb_fetch_budget`, one row per project and day incremented with
 * `INSERT … ON CONFLICT … DO UPDATE`, so every replica counts against the same budget.
 */
export const kbFetch: Migration = {
  version: 12,
  name: 'kb-fetch',
  async up(sql) {
    await sql(`ALTER TABLE kb_documents ADD COLUMN metadata jsonb NOT NULL DEFAULT '{}'::jsonb`);
    await sql(`
      CREATE TABLE kb_fetch_budget (
        project_id uuid NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
        day date NOT NULL,
        fetches integer NOT NULL,
        PRIMARY KEY (project_id, day)
      )`);
  },
};
