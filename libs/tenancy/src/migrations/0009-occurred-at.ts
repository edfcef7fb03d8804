import { type Migration } from '@cairn/db';

/**
 * When a memory's fact happened or was said (`occurred_at`), apart from when it was written
 * (`created_at`): temporal questions ("last Saturday", "in May 2023") filter or boost by it.
 * Existing rows take their creation time, as new ones do by default. The index serves the
 * range filter and the "memories dated near X" candidates of recall, per project.
 * Extraction requests and their proposals carry the conversation's date to the memories
 * made from them (null: the request's own time).
 */
export const occurredAt: Migration = {
  version: 9,
  name: 'occurred-at',
  async up(sql) {
    await sql(`ALTER TABLE memories ADD COLUMN occurred_at timestamptz`);
    await sql(`UPDATE memories SET occurred_at = created_at`);
    await sql(`ALTER TABLE memories ALTER COLUMN occurred_at SET DEFAULT now(), ALTER COLUMN occurred_at SET NOT NULL`);
    await sql(`CREATE INDEX memories_project_occurred ON memories (project_id, occurred_at)`);
    await sql(`ALTER TABLE generation_requests ADD COLUMN occurred_at timestamptz`);
    await sql(`ALTER TABLE memory_proposals ADD COLUMN occurred_at timestamptz`);
  },
};
