import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { createTestDatabase, type TestDatabase, testRedisUrl } from '@cairn/testing';
import { type BenchApp, startApiApp } from '../lib/app';
import { CI_SUBSET_FILE } from './ci-subset';
import { BASELINE, type EvalRun, evaluate } from './evaluate';
import { loadLongMemEval } from './longmemeval';

/**
 * Retrieval regression check on the committed LongMemEval subset (test/fixtures/eval): the
 * `npm run eval` pipeline, pooled haystack, on the suite's test database. The floors sit a few
 * points under what the subset measured when they were set (recall@10: hybrid, keyword and BM25
 * all 79.9%, the same in repeated runs); one question is worth up to 4.2 points, so a floor of
 * 75% allows about one question's worth of drift. They catch a ranking that broke and
 * are not a target to tune against: 24 questions are far too few to tell a better ranker from a
 * luckier one.
 *
 * The built-in hash embedder, not the local model: embedding the subset's 470 turns with the
 * local model took 64 s on the shared 2-core machine (load 5), the hash embedder takes none, and
 * its vectors repeat exactly, so the floors cannot flake. The local model's own search has its
 * e2e test (apps/api/test/local-model-search.e2e-spec.ts); `npm run eval -- --provider local`
 * measures it on the whole set.
 */
const FLOORS = { hybrid: 0.75, keyword: 0.75 } as const;

describe('LongMemEval CI subset (pooled, hash embedder)', () => {
  let database: TestDatabase;
  let bench: BenchApp;
  let run: EvalRun;
  const recall10 = (name: string) => run.rankers.find((r) => r.name === name)?.overall.values['recall@10'];

  beforeAll(async () => {
    database = await createTestDatabase();
    bench = await startApiApp(database.url, testRedisUrl(), {
      EMBEDDING_PROVIDER: 'hash',
      QUEUE_PREFIX: `t${randomBytes(4).toString('hex')}`,
    });
    const corpus = loadLongMemEval(join(__dirname, '..', '..', CI_SUBSET_FILE));
    run = await evaluate(bench, corpus, corpus.questions, {
      modes: ['hybrid', 'keyword'],
      haystack: 'pooled',
      log: () => undefined,
    });
  });
  afterAll(async () => {
    await bench?.app.close();
    await database?.drop();
  });

  it('evaluates every subset question in each mode, BM25 beside each', () => {
    expect(run.embedder).toBe('cairn-hash-v1');
    expect(run.memories).toBe(470);
    expect(run.rankers.map((r) => r.name)).toEqual([BASELINE, 'hybrid', 'keyword']);
    for (const ranker of run.rankers) expect(ranker.overall.questions).toBe(24);
    const bm25 = recall10(BASELINE) ?? 0;
    expect(bm25).toBeGreaterThan(0);
    const hybrid = run.rankers.find((r) => r.name === 'hybrid');
    expect(hybrid?.ratioToBm25?.overall['recall@10']).toBeCloseTo((recall10('hybrid') ?? 0) / bm25, 12);
    expect(Object.keys(hybrid?.ratioToBm25?.byType ?? {})).toHaveLength(6);
  });

  it.each(Object.entries(FLOORS))('%s recall@10 stays above its floor of %s', (mode, floor) => {
    expect(recall10(mode)).toBeGreaterThanOrEqual(floor);
  });
});
