import { type Migration } from '@cairn/db';

/**
 * The project card (issue 25): what an agent reads at the start of a session instead of
 * listing and reading files. Every version is kept, so one row per (project, version) and no
 * updates: the newest row is the card. `edited` names the sections last written by a person or
 * agent rather than derived from the code index, which derivation then leaves alone;
 * `derived_from` is the index run (branch, commit, time) the derived sections came from.
 *
 * Version 23: version 22 is the code index's (`0022-code-index.ts`), added on its own branch.
 */
export const projectCards: Migration = {
  version: 23,
  name: 'project-cards',
  async up(sql) {
    await sql(`
      CREATE TABLE project_card_versions (
        project_id uuid NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
        version int NOT NULL CHECK (version >= 1),
        content jsonb NOT NULL,
        edited text[] NOT NULL DEFAULT '{}',
        derived_from jsonb,
        author_user_id uuid,
        author_agent_id text,
        note text,
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (project_id, version)
      )`);
  },
};
