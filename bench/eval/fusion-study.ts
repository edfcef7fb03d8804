/**
 * `npm run eval:fusion`: which fusion of the keyword and semantic rankers finds most evidence
 * on LongMemEval (pooled), measured on the rankers' own candidate lists. Each question's two
 * lists are fetched once (the exact statements HybridSearch runs, with its list sizes); every
 * fusion is then computed over the same lists, so the comparison is free of run-to-run noise.
 * Prints recall@10 per question type for each ranker alone, for reciprocal rank fusion and for
 * normalised score fusion at several keyword weights. The figures behind libs/search/src/fusion.ts.
 */
import 'reflect-metadata';
import { existsSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { EMBEDDER, type Embedder } from '@cairn/embeddings';
import { MemoriesRepository, SYSTEM_VIEWER } from '@cairn/memory';
import { ProjectResolver } from '@cairn/projects';
import {
  type Candidate,
  candidatesPerList,
  DEFAULT_MATCH_BUDGET,
  fuse,
  type FusionMethod,
  HybridSearch,
  queryEntities,
  vectorSearchSettings,
} from '@cairn/search';
import { TenantEntry, TenantTransaction } from '@cairn/tenancy';
import { startApiApp } from '../lib/app';
import { prepareEnvironment } from '../lib/environment';
import { repositoryRoot } from '../lib/report';
import { defaultEvalData, missingEvalData } from './eval-data';
import { ingest, POOLED_PROJECT } from './ingest';
import { loadLongMemEval } from './longmemeval';
import { score } from './metrics';
import { defaultProvider, providerEnv } from './provider';

const log = (line: string) => process.stderr.write(`[fusion] ${line}\n`);
const LIMIT = 10;

interface Lists {
  readonly type: string;
  readonly relevant: ReadonlySet<string>;
  readonly answerSessions: ReadonlySet<string>;
  readonly keyword: Candidate[];
  readonly semantic: Candidate[];
}

const VARIANTS: readonly { name: string; method: FusionMethod }[] = [
  { name: 'rrf k=60', method: { kind: 'rrf', k: 60, keywordWeight: 0.5 } },
  ...[0.4, 0.5, 0.6, 0.7, 0.8, 0.9].map((keywordWeight) => {
    const method: FusionMethod = { kind: 'score', keywordWeight };
    return { name: `score w=${keywordWeight}`, method };
  }),
];

async function main(): Promise<void> {
  const root = repositoryRoot(__dirname);
  const dataArg = process.argv.indexOf('--data');
  const data = dataArg > 0 ? resolve(process.argv[dataArg + 1] ?? '') : defaultEvalData(root);
  if (!existsSync(data)) throw missingEvalData(data);
  const corpus = loadLongMemEval(data);
  const cleanups: (() => Promise<void>)[] = [];
  try {
    const environment = await prepareEnvironment(log, (cleanup) => cleanups.push(cleanup));
    const bench = await startApiApp(
      environment.databaseUrl,
      environment.redisUrl,
      await providerEnv(defaultProvider(), root, process.env.EMBEDDING_MODEL || undefined),
    );
    cleanups.push(() => bench.app.close());
    const ingested = await ingest(bench, [{ slug: POOLED_PROJECT, turns: corpus.turns }], log);
    const embedder = bench.app.get<Embedder>(EMBEDDER);
    const [entry, tx] = [bench.app.get(TenantEntry), bench.app.get(TenantTransaction)];
    const [search, memories] = [bench.app.get(HybridSearch), bench.app.get(MemoriesRepository, { strict: false })];
    const perListArg = process.argv.indexOf('--per-list');
    const perList = perListArg > 0 ? Number(process.argv[perListArg + 1]) : candidatesPerList(LIMIT);
    const lists: Lists[] = [];
    for (const question of corpus.questions) {
      const [vector] = await embedder.embed([question.question]);
      const fetched = await entry.run(ingested.tenant, () =>
        tx.run(async () => {
          const [project] = await bench.app.get(ProjectResolver, { strict: false }).resolveMany([POOLED_PROJECT]);
          const corpus = memories.rankable({
            scope: { projectIds: [project?.id ?? ''], includeTenantWide: true, viewer: SYSTEM_VIEWER },
          });
          return search.rankers(corpus, {
            keyword: {
              query: question.question,
              matchBudget: DEFAULT_MATCH_BUDGET,
              entities: queryEntities(question.question),
              limit: perList,
              maxTerms: 24,
            },
            semantic: { model: embedder.model, vector: vector ?? [], limit: perList, exact: true },
          });
        }, vectorSearchSettings(LIMIT)),
      );
      // Fusion compares the rankers alone: the boosts' signals other than age are left out, as before.
      const toCandidates = (list: 'keyword' | 'semantic') =>
        fetched[list].map((row) => ({ id: row.id, score: row.score, signals: { createdAt: row.signals.createdAt } }));
      lists.push({
        type: question.type,
        relevant: question.relevant,
        answerSessions: question.answerSessions,
        keyword: toCandidates('keyword'),
        semantic: toCandidates('semantic'),
      });
    }
    const now = new Date();
    const keyOf = (id: string) => ingested.keyOf.get(id) ?? '';
    const dumpArg = process.argv.indexOf('--dump');
    if (dumpArg > 0) {
      // The lists as turn keys and scores, for studying other orderings without a database.
      const entries = lists.map((entry, index) => ({
        id: corpus.questions[index]?.id,
        type: entry.type,
        question: corpus.questions[index]?.question,
        date: corpus.questions[index]?.date,
        relevant: [...entry.relevant],
        keyword: entry.keyword.map((c) => [keyOf(c.id), c.score]),
        semantic: entry.semantic.map((c) => [keyOf(c.id), c.score]),
      }));
      writeFileSync(resolve(process.argv[dumpArg + 1] ?? 'lists.json'), JSON.stringify(entries));
    }
    const rows: { name: string; byType: Map<string, number>; all: number }[] = [];
    const evaluate = (name: string, rank: (entry: Lists) => string[]) => {
      const results = lists.map((entry) => ({ ...entry, ranked: rank(entry) }));
      const recall10 = (of: typeof results) => score(of, 'pooled').values['recall@10'] ?? 0;
      const types = [...new Set(results.map((r) => r.type))].sort();
      const byType = new Map(types.map((t) => [t, recall10(results.filter((r) => r.type === t))]));
      rows.push({ name, byType, all: recall10(results) });
    };
    evaluate('keyword', (e) => e.keyword.slice(0, LIMIT).map((c) => keyOf(c.id)));
    evaluate('semantic', (e) => e.semantic.slice(0, LIMIT).map((c) => keyOf(c.id)));
    for (const variant of VARIANTS) {
      evaluate(variant.name, (e) =>
        fuse({ keyword: e.keyword, semantic: e.semantic }, { method: variant.method, now })
          .slice(0, LIMIT)
          .map((hit) => keyOf(hit.id)),
      );
    }
    // Conversation context: a turn's neighbours in its session share its score (`gamma` of the
    // better neighbour's), and with `addNeighbours` the turns next to a candidate join the list.
    const keys = new Set(corpus.turns.map((turn) => turn.key));
    const neighboursOf = (key: string) => {
      const at = key.lastIndexOf('#');
      const [session, turn] = [key.slice(0, at), Number(key.slice(at + 1))];
      return [`${session}#${turn - 1}`, `${session}#${turn + 1}`].filter((k) => keys.has(k));
    };
    const inContext = (scored: ReadonlyMap<string, number>, gamma: number, addNeighbours: boolean): string[] => {
      const result = new Map<string, number>();
      const raise = (key: string, value: number) => result.set(key, Math.max(result.get(key) ?? 0, value));
      for (const [key, value] of scored) {
        const neighbours = neighboursOf(key);
        raise(key, value + gamma * Math.max(0, ...neighbours.map((n) => scored.get(n) ?? 0)));
        if (addNeighbours) for (const n of neighbours) if (!scored.has(n)) raise(n, gamma * value);
      }
      return [...result.entries()].sort((a, b) => b[1] - a[1]).map(([key]) => key);
    };
    // Several sessions in the top ten: a session's turns past the first `perSession` wait until the others had their turn.
    const diverse = (ranked: readonly string[], perSession: number): string[] => {
      const seen = new Map<string, number>();
      const first: string[] = [];
      const later: string[] = [];
      for (const key of ranked) {
        const session = key.slice(0, key.lastIndexOf('#'));
        const n = (seen.get(session) ?? 0) + 1;
        seen.set(session, n);
        (n <= perSession ? first : later).push(key);
      }
      return [...first, ...later].slice(0, LIMIT);
    };
    for (const keywordWeight of [0.7]) {
      for (const [gamma, add] of [
        [0.2, false],
        [0.4, false],
        [0.2, true],
        [0.4, true],
      ] as const) {
        evaluate(`w=${keywordWeight} ctx ${gamma}${add ? '+' : ''}`, (e) => {
          const fused = fuse(
            { keyword: e.keyword, semantic: e.semantic },
            { method: { kind: 'score', keywordWeight }, now },
          );
          return inContext(new Map(fused.map((hit) => [keyOf(hit.id), hit.explain.fused])), gamma, add).slice(0, LIMIT);
        });
      }
      for (const perSession of [2, 3]) {
        evaluate(`w=${keywordWeight} ctx .2 div${perSession}`, (e) => {
          const fused = fuse(
            { keyword: e.keyword, semantic: e.semantic },
            { method: { kind: 'score', keywordWeight }, now },
          );
          return diverse(
            inContext(new Map(fused.map((hit) => [keyOf(hit.id), hit.explain.fused])), 0.2, false),
            perSession,
          );
        });
      }
    }
    const types = [...(rows[0]?.byType.keys() ?? [])];
    const header = `${'fusion'.padEnd(18)} ${'all'.padStart(7)} ${types.map((t) => t.slice(0, 12).padStart(13)).join('')}`;
    process.stdout.write(`\nrecall@10, LongMemEval pooled (${lists.length} questions, ${embedder.model.id})\n\n`);
    process.stdout.write(`${header}\n${'-'.repeat(header.length)}\n`);
    for (const row of rows) {
      const cells = types.map((t) => `${((row.byType.get(t) ?? 0) * 100).toFixed(1)}%`.padStart(13)).join('');
      process.stdout.write(`${row.name.padEnd(18)} ${`${(row.all * 100).toFixed(1)}%`.padStart(7)} ${cells}\n`);
    }
  } finally {
    for (const cleanup of cleanups.reverse()) await cleanup().catch((error: Error) => log(`cleanup: ${error.message}`));
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    log(error instanceof Error ? (error.stack ?? error.message) : String(error));
    process.exit(1);
  },
);
