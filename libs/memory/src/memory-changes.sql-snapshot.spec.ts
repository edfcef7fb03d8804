import { join } from 'node:path';
import { SqlParams } from '@cairn/db';
import { SYSTEM_VIEWER } from './contract/memory-viewer';
import { projectScope } from './memory-access';
import { expectCommittedFile } from '@cairn/testing';
import { changesPageSql } from './memory-changes.sql';

/**
 * The change feed's page statement, rendered with fixed inputs and compared with the file
 * committed under libs/memory/sql/ (`npm run snapshots` rewrites it), so every change to it
 * shows in review.
 */
const PROJECT = { id: '00000000-0000-4000-8000-000000000001', slug: 'web' };
const BOB = { userId: null, agentId: 'cursor:bob', tokenId: '00000000-0000-4000-8000-000000000003' };

function rendered(title: string, sql: string, params: SqlParams): string[] {
  const values = params.values.map((value, index) => `--   $${index + 1} = ${JSON.stringify(value)}`);
  return ['', `-- ${title}`, '-- parameters:', ...values, `${sql};`];
}

describe('change feed SQL snapshot', () => {
  it('renders a page as committed', () => {
    const agent = new SqlParams();
    const job = new SqlParams();
    const after = { kind: 'after', xid: '812', id: '00000000-0000-4000-8000-0000000000aa' } as const;
    const text = [
      '-- memories/changes (MemoryChanges.since): rows the reader sees and its grant notices, merged in',
      '-- (xid, memory id) order below the horizon.',
      ...rendered(
        'an agent, after a position: rows and grant notices',
        changesPageSql(projectScope(PROJECT, BOB), after, '900', 101, agent),
        agent,
      ),
      ...rendered(
        'the system viewer, from a horizon: rows only',
        changesPageSql(projectScope(PROJECT, SYSTEM_VIEWER), { kind: 'horizon', xid: '700' }, '900', 101, job),
        job,
      ),
    ].join('\n');
    expectCommittedFile(join(__dirname, '..', 'sql', 'changes-page.sql'), text);
  });
});
