import { type Migration } from '@cairn/db';

/**
 * Grant changes in the change feed. A share or tag rule changes what a grantee sees without
 * changing the memory row, so the row's `change_xid` cannot carry it: a memory shared later
 * never reached the grantee's feed, and one unshared stayed in their synced copy for good.
 * Each grant change (share, unshare, rule made or removed, a tag a rule matched taken off)
 * writes one notice per memory and grantee, stamped like a row change with its transaction id;
 * the feed reads the viewer's notices beside the rows and answers each with the memory as the
 * viewer sees it now, or a tombstone when they no longer may.
 */
export const grantNotices: Migration = {
  version: 18,
  name: 'grant-notices',
  async up(sql) {
    await sql(`
      CREATE TABLE memory_grant_notices (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        memory_id uuid NOT NULL REFERENCES memories (id) ON DELETE CASCADE,
        grantee_user_id uuid,
        grantee_agent_id text,
        change_xid xid8 NOT NULL DEFAULT pg_current_xact_id(),
        created_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT memory_grant_notices_one_grantee CHECK ((grantee_user_id IS NULL) <> (grantee_agent_id IS NULL))
      )`);
    await sql(`CREATE INDEX memory_grant_notices_user ON memory_grant_notices (grantee_user_id, change_xid)
      WHERE grantee_user_id IS NOT NULL`);
    await sql(`CREATE INDEX memory_grant_notices_agent ON memory_grant_notices (grantee_agent_id, change_xid)
      WHERE grantee_agent_id IS NOT NULL`);
    await sql(`CREATE INDEX memory_grant_notices_memory ON memory_grant_notices (memory_id)`);
  },
};
