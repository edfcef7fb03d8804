import { join } from 'node:path';
import { SqlParams } from '@cairn/db';
import { expectCommittedFile } from '@cairn/testing';
import { KB_CHUNKS_CORPUS } from './kb-corpus.sql';

/**
 * What knowledge contributes to the ranking statements @cairn/search renders for kb_search
 * (libs/search/sql): its corpus's condition over alias `c`, whose parameters come first.
 * Compared with libs/knowledge/sql/kb-corpus.sql; `npm run snapshots` rewrites it.
 */
describe('knowledge SQL snapshots', () => {
  it('renders the knowledge-base corpus as committed', () => {
    const filter = {
      projectIds: ['00000000-0000-4000-8000-000000000001', '00000000-0000-4000-8000-000000000002'],
    };
    const params = new SqlParams();
    const where = KB_CHUNKS_CORPUS.condition(filter, params, 'c');
    const text = [
      '-- kb_search (KbSearchService through KbChunksRepository.corpus): HybridSearch.rank runs its keyword and vector',
      "-- rankers over this corpus: the chunks of live documents of the searched projects (one, or the token's).",
      `-- corpus table: ${KB_CHUNKS_CORPUS.table} (alias c); term statistics of the scopes ${JSON.stringify(KB_CHUNKS_CORPUS.termScopes(filter))}`,
      '-- signals: c.created_at (chunks carry no importance, confidence or pin)',
      '-- parameters:',
      ...params.values.map((value, index) => `--   $${index + 1} = ${JSON.stringify(value)}`),
      `${where};`,
    ].join('\n');
    expectCommittedFile(join(__dirname, '..', 'sql', 'kb-corpus.sql'), text);
  });
});
