import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  createTestDatabase,
  type FakeModelServer,
  fakeRerankScore,
  startFakeModelServer,
  type TestDatabase,
  testRedisUrl,
} from '@cairn/testing';
import { type BenchApp, startApiApp } from '../lib/app';
import { type EvalRun, evaluate, RERANKED } from './evaluate';
import { type EvalCorpus, type LongMemEvalQuestion, loadLongMemEval } from './longmemeval';
import { formatRun } from './print';
import { rerankerEnv } from './provider';

const MODEL = 'bge-reranker-v2-m3';

/**
 * Three questions, one session each, LongMemEval's shape. Each session holds the answer in a
 * long turn that has every word of the question, and a short turn with only the question's
 * rarer words: the keyword ranker prefers the short one (length normalisation), the in-test
 * reranker (share of the question's words a turn has, fakeRerankScore) the long one.
 */
const SESSIONS: { question: string; type: string; turns: [string, boolean][] }[] = [
  {
    question: 'what colour did I paint the garden shed?',
    type: 'single-session-user',
    turns: [
      ['paint colour garden shed', false],
      ['I did paint the garden shed at last, and what colour? a deep green, the colour of moss after rain', true],
      ['the hardware store closes at six on weekdays', false],
      ['remember to water the tomatoes and the beans', false],
    ],
  },
  {
    question: 'which dentist did my sister recommend to me?',
    type: 'multi-session',
    turns: [
      ['dentist sister recommend', false],
      ['my sister did recommend a dentist to me, which was Dr Alvarez on Pine Street near the library', true],
      ['the bakery on the corner sells rye bread', false],
      ['book a haircut for next month', false],
    ],
  },
  {
    question: 'how many miles did I run at the charity race?',
    type: 'single-session-user',
    turns: [
      ['charity race miles run', false],
      ['at the charity race I did run how many miles? eleven miles in the end, many more than I planned', true],
      ['the running club meets by the river', false],
      ['buy new laces for the old trainers', false],
    ],
  },
];

function fixture(dir: string): string {
  const lines = SESSIONS.map(({ question, type, turns }, index): LongMemEvalQuestion => ({
    question_id: `rr${index}`,
    question_type: type,
    question,
    answer: '',
    question_date: '2024/03/01 (Fri) 10:00',
    haystack_session_ids: [`s${index}`],
    haystack_dates: ['2024/02/20 (Tue) 09:00'],
    haystack_sessions: [turns.map(([content, answer]) => ({ role: 'user', content, has_answer: answer }))],
    answer_session_ids: [`s${index}`],
  }));
  const path = join(dir, 'longmemeval-rerank.jsonl');
  writeFileSync(path, `${lines.map((line) => JSON.stringify(line)).join('\n')}\n`);
  return path;
}

/** Each question's turn the in-test reranker scores best, asserting it is the only one with that score. */
function rerankersChoice(corpus: EvalCorpus): string[] {
  return corpus.questions.map((question) => {
    const scored = corpus.turns
      .map((turn) => ({ key: turn.key, score: fakeRerankScore(question.question, turn.content) }))
      .sort((a, b) => b.score - a.score);
    expect(scored[0].score).toBeGreaterThan(scored[1].score);
    return scored[0].key;
  });
}

/** The eval's reranked path on one database: the plain app stores and asks, the reranked app asks again. */
async function rerankedRun(database: TestDatabase, rerank: Record<string, string>, corpus: EvalCorpus) {
  const env = { EMBEDDING_PROVIDER: 'hash', QUEUE_PREFIX: `t${randomBytes(4).toString('hex')}` };
  const plain = await startApiApp(database.url, testRedisUrl(), env);
  let reranked: BenchApp | undefined;
  try {
    reranked = await startApiApp(database.url, testRedisUrl(), { ...env, ...rerank });
    return await evaluate(plain, corpus, corpus.questions, {
      modes: ['hybrid'],
      haystack: 'pooled',
      log: () => undefined,
      reranked,
    });
  } finally {
    await reranked?.app.close();
    await plain.app.close();
  }
}

const top = (run: EvalRun, name: string) =>
  run.rankers.find((ranker) => ranker.name === name)!.rankings.map((ranking) => ranking.ranked[0]);
const row = (run: EvalRun, name: string) => run.rankers.find((ranker) => ranker.name === name)!;

describe('npm run eval with a reranker (a LongMemEval-shaped fixture, the in-test model server)', () => {
  let dir: string;
  let corpus: EvalCorpus;
  let server: FakeModelServer;
  let slow: FakeModelServer;
  const databases: TestDatabase[] = [];
  let answered: EvalRun;
  let late: EvalRun;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'cairn-rerank-eval-'));
    corpus = loadLongMemEval(fixture(dir));
    server = await startFakeModelServer({ models: [MODEL] });
    // Answers TEI's /rerank, but only after the search's budget has run out.
    slow = await startFakeModelServer({ models: [MODEL], latencyMs: 1_500 });
    for (let i = 0; i < 2; i += 1) databases.push(await createTestDatabase());
    answered = await rerankedRun(
      databases[0],
      rerankerEnv({ url: server.url, model: MODEL, api: 'cohere', candidates: 50, batchSize: 4 }),
      corpus,
    );
    late = await rerankedRun(databases[1], rerankerEnv({ url: slow.url, api: 'tei', timeoutMs: 300 }), corpus);
  });
  afterAll(async () => {
    await server?.close();
    await slow?.close();
    for (const database of databases) await database.drop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('puts first, for every question, the turn the reranker scores best, where fusion did not', () => {
    const choice = rerankersChoice(corpus);
    expect(top(answered, `hybrid${RERANKED}`)).toEqual(choice);
    // The fixture tells the two apart: without the reranker's order the first turns differ.
    expect(top(answered, 'hybrid')).not.toEqual(choice);
    expect(row(answered, `hybrid${RERANKED}`).overall.values['recall@1']).toBe(1);
    expect(row(answered, 'hybrid').overall.values['recall@1']).toBeLessThan(1);
  });

  it('sent every candidate, in batches, and reports the calls, the fallbacks and the wait', () => {
    // 12 turns, all candidates (the semantic ranker lists every one), in requests of at most 4.
    const calls = server.requests.filter((request) => request.path === '/v1/rerank');
    expect(calls).toHaveLength(9);
    expect(calls.every((call) => call.body.model === MODEL && call.body.documents.length <= 4)).toBe(true);
    // Both rankers' candidates: the answer (the keyword ranker's) and a turn sharing no word with
    // any question, which only the semantic ranker lists.
    for (const question of corpus.questions) {
      const sent = calls.filter((call) => call.body.query === question.question).flatMap((call) => call.body.documents);
      expect(sent).toHaveLength(12);
      expect(sent).toContain('book a haircut for next month');
      expect(sent).toContain(corpus.turns.find((turn) => question.relevant.has(turn.key))?.content);
    }
    expect(answered.reranker).toEqual({
      server: server.url,
      api: 'cohere',
      model: MODEL,
      candidates: 50,
      batchSize: 4,
      timeoutMs: 800,
    });
    const stats = row(answered, `hybrid${RERANKED}`).rerank!;
    expect(stats).toMatchObject({ calls: 3, applied: 3, fellBack: 0, meanCandidates: 12 });
    expect(stats.latencyMs.p95).toBeGreaterThanOrEqual(stats.latencyMs.p50);
    expect(row(answered, 'hybrid').rerank).toBeUndefined();

    const printed = formatRun(answered, 'rerank fixture');
    expect(printed).toContain('hybrid+rerank');
    expect(printed).toContain(`hybrid+rerank: 3 calls to ${MODEL} (cohere API`);
    expect(printed).toContain('0 fell back to the fused order');
    // Per type, beside BM25, with the reranked row too.
    expect(printed).toMatch(/multi-session \(1 questions\)[\s\S]*bm25[\s\S]*hybrid[\s\S]*hybrid\+rerank/);
  });

  it("keeps the fused order when TEI's answer comes too late, and says every call fell back", () => {
    expect(slow.requests.every((request) => request.path === '/rerank')).toBe(true);
    expect(slow.requests.length).toBeGreaterThan(0);
    expect(late.rankers.find((r) => r.name === `hybrid${RERANKED}`)!.rankings).toEqual(
      late.rankers.find((r) => r.name === 'hybrid')!.rankings,
    );
    const stats = row(late, `hybrid${RERANKED}`).rerank!;
    expect(stats).toMatchObject({ calls: 3, applied: 0, fellBack: 3 });
    expect(stats.latencyMs.p50).toBeGreaterThanOrEqual(250);
    expect(late.reranker).toMatchObject({ api: 'tei', model: 'tei', timeoutMs: 300 });
    expect(formatRun(late, 'late')).toContain('3 fell back to the fused order');
  });
});
