import { type Migration } from '@cairn/db';

/** Projects partition a tenant's data; `last_seen_at` anchors "what changed since". */
export const projects: Migration = {
  version: 1,
  name: 'projects',
  async up(sql) {
    await sql(`
      CREATE TABLE projects (
        id uuid PRIMARY KEY,
        slug text NOT NULL UNIQUE CHECK (slug ~ '^[a-z][a-z0-9-]{2,39}$'),
        name text NOT NULL,
        card jsonb NOT NULL DEFAULT '{}'::jsonb,
        last_seen_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
  },
};
