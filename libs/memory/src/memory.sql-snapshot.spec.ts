import { join } from 'node:path';
import { SqlParams } from '@cairn/db';
import { type Corpus } from '@cairn/search';
import { expectCommittedFile } from '@cairn/testing';
import { CANDIDATE_CONTENTS_SQL, contradictionCorpus } from './contradiction-candidates.sql';
import { type MemoryFilter } from './contract/memory-filter';
import { SYSTEM_VIEWER } from './contract/memory-viewer';
import { memoryCorpus } from './memory-corpus.sql';
import { datedCandidatesSql, type OccurredWindow } from './memory-dated.sql';

/**
 * The statements behind the contradiction check and recall, rendered with fixed inputs and
 * compared with the files committed under libs/memory/sql/, so every change to them shows in
 * review (`npm run snapshots` rewrites them). The ranking statement itself is @cairn/search's
 * (HybridSearch.rank); what memory contributes to it is the corpus: the table, the signals it
 * selects, the term-statistics scopes and the condition on alias `c`.
 */
const SQL_DIR = join(__dirname, '..', 'sql');
const PROJECT = '00000000-0000-4000-8000-000000000001';
const MEMORY = '00000000-0000-4000-8000-0000000000aa';
const USER = {
  userId: '00000000-0000-4000-8000-000000000002',
  agentId: 'claude-code',
  tokenId: '00000000-0000-4000-8000-000000000003',
};

function corpusText(title: string, corpus: Corpus, params: SqlParams): string {
  const values = params.values.map((value, index) => `--   $${index + 1} = ${JSON.stringify(value)}`);
  return [
    `-- ${title}`,
    `-- corpus table: ${corpus.table} (alias c); term statistics of the scopes ${JSON.stringify(corpus.termScopes)}`,
    `-- signals: ${corpus.signals}`,
    '-- parameters:',
    ...values,
    `${corpus.where};`,
  ].join('\n');
}

describe('memory SQL snapshots', () => {
  it('renders the contradiction candidates as committed', () => {
    const params = new SqlParams();
    const corpus = contradictionCorpus(
      { projectIds: [PROJECT], includeTenantWide: true, viewer: USER },
      MEMORY,
      params,
    );
    const text = [
      '-- Contradiction candidates (ContradictionsService, on store and on a content update): HybridSearch.rank',
      "-- ranks this corpus by keyword with the memory's content, keywords and tags as the query; then the",
      "-- candidates' text is read for the detector.",
      '',
      corpusText(
        "the condition: live memories of the memory's project and team ones its author sees, not itself",
        corpus,
        params,
      ),
      '',
      "-- the ranked candidates' text; $1 = their ids",
      `${CANDIDATE_CONTENTS_SQL};`,
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
      '-- Recall (MemoryRecall through MemoriesRepository.rankingCorpus): HybridSearch.rank runs its keyword and',
      '-- vector rankers over this corpus.',
      ...shapes.flatMap(([title, filter]) => {
        const params = new SqlParams();
        return ['', corpusText(title, memoryCorpus(filter, params), params)];
      }),
    ].join('\n');
    expectCommittedFile(join(SQL_DIR, 'memory-corpus.sql'), text);
  });

  it('renders the dated candidates of a question with dates as committed', () => {
    const scope = { projectIds: [PROJECT], includeTenantWide: true, viewer: USER };
    const saturday = { from: new Date('2024-06-08T00:00:00.000Z'), to: new Date('2024-06-09T00:00:00.000Z') };
    type Shape = [MemoryFilter, OccurredWindow, OccurredWindow, number];
    const shapes: [string, Shape][] = [
      [
        'a boost ("last Saturday"): the range widened to where closeness falls to a quarter',
        [
          { scope },
          { from: new Date('2024-06-06T00:00:00.000Z'), to: new Date('2024-06-11T00:00:00.000Z') },
          saturday,
          30,
        ],
      ],
      [
        'an open range ("before June 2024")',
        [
          { scope },
          { from: null, to: new Date('2024-08-01T00:00:00.000Z') },
          { from: null, to: new Date('2024-06-01T00:00:00.000Z') },
          30,
        ],
      ],
    ];
    const text = [
      '-- Dated candidates (MemoryRecall through MemoriesRepository.datedCandidates): memories that occurred near a',
      "-- question's date range, nearest first, added to what the rankers found; memories_project_occurred serves it.",
      ...shapes.flatMap(([title, [filter, window, core, limit]]) => {
        const params = new SqlParams();
        const sql = datedCandidatesSql(filter, window, core, limit, params);
        const values = params.values.map((value, index) => `--   $${index + 1} = ${JSON.stringify(value)}`);
        return ['', `-- ${title}`, '-- parameters:', ...values, `${sql};`];
      }),
    ].join('\n');
    expectCommittedFile(join(SQL_DIR, 'memory-dated.sql'), text);
  });
});
