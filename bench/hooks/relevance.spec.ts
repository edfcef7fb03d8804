import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { createTestDatabase, localModelEnv, type TestDatabase, testRedisUrl } from '@cairn/testing';
import { type BenchApp, startApiApp } from '../lib/app';
import { runRelevanceEval, type RelevanceEvalResult } from './relevance-run';

/**
 * Floors under recall's relevance threshold on the labelled set (bench/hooks/relevance-set.json),
 * with each embedder the product ships: `npm run eval -- --relevance` measured and chose the
 * defaults (docs/hooks.md); this guards them. Floors sit a few points under what was measured:
 * one labelled memory is 1.3 points of recall, one wrong memory kept about 2 points of precision.
 * A change to ranking, the relevance signals or their calibration that crosses one is a
 * regression to look at, not noise (both embedders repeat exactly on the same input).
 */
const FLOORS = {
  'cairn-hash-v1': {
    threshold: { precision: 0.8, recall: 0.52, silentOnUnrelated: 0.97 },
    hook: { precision: 0.88, recall: 0.52, silentOnUnrelated: 0.97 },
  },
  'local-all-minilm-l6-v2-384': {
    threshold: { precision: 0.74, recall: 0.68, silentOnUnrelated: 0.97 },
    hook: { precision: 0.9, recall: 0.68, silentOnUnrelated: 0.97 },
  },
} as const;

describe.each([
  ['cairn-hash-v1', { EMBEDDING_PROVIDER: 'hash' }],
  ['local-all-minilm-l6-v2-384', localModelEnv()],
] as const)('relevance threshold with %s', (model, env) => {
  let database: TestDatabase;
  let bench: BenchApp;
  let result: RelevanceEvalResult;

  beforeAll(async () => {
    database = await createTestDatabase();
    bench = await startApiApp(database.url, testRedisUrl(), {
      ...env,
      QUEUE_PREFIX: `t${randomBytes(4).toString('hex')}`,
    });
    result = await runRelevanceEval(bench, join(__dirname, '..', '..'), { log: () => undefined });
  }, 120_000);
  afterAll(async () => {
    await bench?.app.close();
    await database?.drop();
  });

  it('scores every labelled prompt with the calibration of the active model', () => {
    expect(result.embedder).toBe(model);
    expect(result.calibration.basis).toBe(model);
    expect(result.set).toMatchObject({ projects: 5, memories: 60 });
    expect(result.set.prompts).toBeGreaterThan(250);
  });

  it.each(['threshold', 'hook'] as const)(
    '%s: precision, recall and silence on unrelated prompts stay above their floors',
    (policy) => {
      const score = result.policies[policy].atDefault;
      const floor = FLOORS[model][policy];
      expect(score.precision).toBeGreaterThanOrEqual(floor.precision);
      expect(score.recall).toBeGreaterThanOrEqual(floor.recall);
      expect(score.silentOnUnrelated).toBeGreaterThanOrEqual(floor.silentOnUnrelated);
    },
  );

  it('keeps nothing for unrelated prompts, where recall without a threshold answers every one of them', () => {
    // The complaint of issue 21: all of a small project's memories came back for an unrelated question.
    expect(result.policies.threshold.withoutThreshold.silentOnUnrelated).toBe(0);
    expect(result.policies.hook.atDefault.silentOnGeneral).toBeGreaterThanOrEqual(0.97);
    expect(result.policies.hook.atDefault.silentOnForeign).toBeGreaterThanOrEqual(0.95);
  });
});
