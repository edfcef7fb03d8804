import { join } from 'node:path';
import { SqlParams } from '@cairn/db';
import { expectCommittedFile } from '@cairn/testing';
import { grantsSql, sharedWithSql } from './memory-share-listings.sql';

/**
 * The sharing listings' statements, rendered with fixed inputs and compared with the files
 * committed under libs/memory/sql/ (`npm run snapshots` rewrites them), so every
 * change to them shows in review. shared_with_me's condition is @cairn/memory's
 * memorySharedWithSql, the fragment the visibility filter uses too.
 */
const SQL_DIR = join(__dirname, '..', 'sql');
const PROJECT = '00000000-0000-4000-8000-000000000001';
const ME = {
  userId: '00000000-0000-4000-8000-000000000002',
  agentId: 'cursor:bob',
  tokenId: '00000000-0000-4000-8000-000000000003',
};
const AFTER = '00000000-0000-4000-8000-0000000000aa';

function rendered(title: string, sql: string, params: SqlParams): string[] {
  const values = params.values.map((value, index) => `--   $${index + 1} = ${JSON.stringify(value)}`);
  return ['', `-- ${title}`, '-- parameters:', ...values, `${sql};`];
}

describe('sharing SQL snapshots', () => {
  it('renders shared_with_me as committed', () => {
    const params = new SqlParams();
    const sql = sharedWithSql(ME, PROJECT, 21, AFTER, params) as string;
    const text = [
      "-- shared_with_me (SharingListings.sharedWithMe): the project's and tenant-wide memories shared with the",
      '-- caller by a share or a live tag rule, not its own, each with its strongest grant; the page after a memory.',
      ...rendered('a user-bound agent, second page', sql, params),
    ].join('\n');
    expect(sharedWithSql({ userId: null, agentId: null, tokenId: ME.tokenId }, PROJECT, 21, undefined, params)).toBe(
      null,
    );
    expectCommittedFile(join(SQL_DIR, 'shared-with-me.sql'), text);
  });

  it('renders my_shares as committed', () => {
    const mine = new SqlParams();
    const all = new SqlParams();
    const text = [
      '-- my_shares (SharingListings.myShares): shares and tag rules of the project, newest first, keyset by',
      '-- (created_at, id) carried in the cursor.',
      ...rendered("the caller's, one memory", grantsSql(ME, PROJECT, AFTER, 51, undefined, mine), mine),
      ...rendered(
        "every one (an admin's all=true), after a position",
        grantsSql(null, PROJECT, undefined, 51, { at: '2026-01-02T03:04:05.678901Z', id: AFTER }, all),
        all,
      ),
    ].join('\n');
    expectCommittedFile(join(SQL_DIR, 'my-shares.sql'), text);
  });
});
