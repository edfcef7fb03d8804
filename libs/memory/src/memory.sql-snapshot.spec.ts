import { join } from 'node:path';
import { SqlParams } from '@cairn/db';
import { expectCommittedFile } from '@cairn/testing';
import { type MemoryFilter } from './contract/memory-filter';
import { SYSTEM_VIEWER } from './contract/memory-viewer';
import { MEMORY_CORPUS, type MemoryCorpusFilter } from './memory-corpus.sql';

/**
 * What memory contributes to the ranking statements of recall and the contradiction check, in
 * each filter shape, compared with the files committed under libs/memory/sql/ (`npm run
 * snapshots` rewrites them). The statements themselves are @cairn/search's (libs/search/sql);
 * memory's part is its corpus (MEMORY_CORPUS): the table, the signal columns, the term-statistics
 * scopes and the condition on alias `c`, whose parameters come first in each statement. The
 * statements memory's repositories send are in the generated libs/memory/sql/*.repository.sql.
 */
const SQL_DIR = join(__dirname, '..', 'sql');
const PROJECT = '00000000-0000-4000-8000-000000000001';
const MEMORY = '00000000-0000-4000-8000-0000000000aa';
const USER = {
  userId: '00000000-0000-4000-8000-000000000002',
  agentId: 'claude-code',
  tokenId: '00000000-0000-4000-8000-000000000003',
};

function corpusText(title: string, filter: MemoryCorpusFilter): string {
  const params = new SqlParams();
  const where = MEMORY_CORPUS.condition(filter, params, 'c');
  const values = params.values.map((value, index) => `--   $${index + 1} = ${JSON.stringify(value)}`);
  const signals = Object.entries(MEMORY_CORPUS.signals).flatMap(([name, has]) => (has ? [`c.${name}`] : []));
  return [
    `-- ${title}`,
    `-- corpus table: ${MEMORY_CORPUS.table} (alias c); term statistics of the scopes ${JSON.stringify(MEMORY_CORPUS.termScopes(filter))}`,
    `-- signals: ${[...signals, 'c.created_at'].join(', ')}`,
    '-- parameters:',
    ...values,
    `${where};`,
  ].join('\n');
}

describe('memory SQL snapshots', () => {
  it('renders the contradiction candidates as committed', () => {
    const filter = { scope: { projectIds: [PROJECT], includeTenantWide: true, viewer: USER }, excludeId: MEMORY };
    const text = [
      '-- Contradiction candidates (ContradictionsService, on store and on a content update): HybridSearch.rank',
      "-- ranks this corpus by keyword with the memory's content, keywords and tags as the query; the",
      "-- candidates' text is then read for the detector (contradiction-candidates.repository.sql).",
      '',
      corpusText(
        "the condition: live memories of the memory's project and team ones its author sees, not itself",
        filter,
      ),
    ].join('\n');
    expectCommittedFile(join(SQL_DIR, 'contradiction-candidates.sql'), text);
  });

  it('renders the recall corpus as committed', () => {
    const shapes: [string, MemoryFilter][] = [
      [
        'default: the project and team memories a user (through an agent) sees',
        { scope: { projectIds: [PROJECT], includeTenantWide: true, viewer: USER } },
      ],
      [
        'a service token naming an agent, no user',
        { scope: { projectIds: [PROJECT], includeTenantWide: true, viewer: { ...USER, userId: null } } },
      ],
      [
        'every filter set',
        {
          scope: { projectIds: [PROJECT], includeTenantWide: false, viewer: SYSTEM_VIEWER },
          categories: ['decision', 'bug'],
          tags: ['deploy', 'ci'],
          authorAgentId: 'claude-code',
          authorUserId: '00000000-0000-4000-8000-000000000002',
          createdAfter: new Date('2026-01-01T00:00:00.000Z'),
          createdBefore: new Date('2026-02-01T00:00:00.000Z'),
          occurredFrom: new Date('2023-05-01T00:00:00.000Z'),
          occurredBefore: new Date('2023-06-01T00:00:00.000Z'),
          stale: false,
          pinned: true,
          includeArchived: true,
          includeSuperseded: true,
        },
      ],
    ];
    const text = [
      '-- Recall (MemoryRecall through MemoriesRepository.rankable): HybridSearch.rank runs its keyword and',
      '-- vector rankers over this corpus, HybridSearch.rankDated its dated candidates too.',
      ...shapes.flatMap(([title, filter]) => ['', corpusText(title, filter)]),
    ].join('\n');
    expectCommittedFile(join(SQL_DIR, 'memory-corpus.sql'), text);
  });
});
