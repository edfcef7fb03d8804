/**
 * `npm run eval`: retrieval quality on LongMemEval (oracle split). Every session of every
 * question is pooled into one project, one memory per turn; each question's evidence turns
 * (`has_answer`) are the relevant items. Prints recall@1/5/10, hit@k and MRR per search mode.
 */
import 'reflect-metadata';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { MemoryRecall } from '@cairn/memory';
import { SEARCH_MODES, type SearchMode } from '@cairn/search';
import { TenantContext } from '@cairn/tenancy';
import { startApiApp } from '../lib/app';
import { prepareEnvironment } from '../lib/environment';
import { gitCommit, machineInfo, repositoryRoot } from '../lib/report';
import { ingest } from './ingest';
import { type EvalQuestion, loadLongMemEval, type Metrics, score } from './longmemeval';

const log = (line: string) => process.stderr.write(`[eval] ${line}\n`);

interface EvalArgs {
  data: string;
  modes: SearchMode[];
  questions: number;
  /** Keep the throwaway database for inspection (needs DATABASE_URL/REDIS_URL, else it dies with the services). */
  keep: boolean;
  /** Write every question's ranked turns here (JSON Lines), for looking at misses. */
  dump?: string;
}

function parseArgs(argv: readonly string[], root: string): EvalArgs {
  const args: EvalArgs = {
    data: resolve(root, '..', 'shared', 'eval', 'longmemeval_oracle.json'),
    modes: [...SEARCH_MODES],
    questions: Number.POSITIVE_INFINITY,
    keep: false,
  };
  for (let i = 0; i < argv.length; i += 1) {
    const [flag, inline] = (argv[i] ?? '').split('=', 2);
    if (flag === '--keep') {
      args.keep = true;
      continue;
    }
    const value = inline ?? argv[++i] ?? '';
    if (flag === '--data') args.data = resolve(value);
    else if (flag === '--dump') args.dump = resolve(value);
    else if (flag === '--modes')
      args.modes = value.split(',').filter((m): m is SearchMode => SEARCH_MODES.includes(m as SearchMode));
    else if (flag === '--questions') args.questions = Math.max(1, Number(value));
    else
      throw new Error(
        `unknown argument ${flag} (use --data PATH, --modes hybrid,keyword,semantic, --questions N, --keep, --dump FILE)`,
      );
  }
  return args;
}

/** Beside, not over, the benchmark's latest.json. */
function writeEvalResults(root: string, timestamp: string, payload: unknown): string {
  const dir = join(root, 'bench', 'results');
  mkdirSync(dir, { recursive: true });
  const text = `${JSON.stringify(payload, null, 2)}\n`;
  const file = join(dir, `eval-${timestamp.replace(/:/g, '-')}.json`);
  writeFileSync(file, text);
  writeFileSync(join(dir, 'eval-latest.json'), text);
  return relative(root, file);
}

function pct(value: number): string {
  return `${(value * 100).toFixed(1)}%`.padStart(7);
}

function table(rows: { mode: string; metrics: Metrics; ms: number }[]): string {
  const header = `${'mode'.padEnd(10)} ${'recall@1'.padStart(9)} ${'recall@5'.padStart(9)} ${'recall@10'.padStart(9)}  ${'hit@1'.padStart(7)} ${'hit@5'.padStart(7)} ${'hit@10'.padStart(7)} ${'MRR'.padStart(7)}  ${'ms/query'.padStart(8)}`;
  const lines = rows.map(
    ({ mode, metrics: m, ms }) =>
      `${mode.padEnd(10)} ${pct(m.recall[1]).padStart(9)} ${pct(m.recall[5]).padStart(9)} ${pct(m.recall[10]).padStart(9)}  ${pct(m.hit[1])} ${pct(m.hit[5])} ${pct(m.hit[10])} ${m.mrr.toFixed(3).padStart(7)}  ${ms.toFixed(1).padStart(8)}`,
  );
  return [header, '-'.repeat(header.length), ...lines].join('\n');
}

async function main(): Promise<void> {
  const root = repositoryRoot(__dirname);
  const args = parseArgs(process.argv.slice(2), root);
  if (!existsSync(args.data)) throw new Error(`evaluation data not found at ${args.data} (pass --data PATH)`);
  const corpus = loadLongMemEval(args.data);
  const questions: EvalQuestion[] = corpus.questions.slice(0, args.questions);
  log(
    `${corpus.turns.length} turns, ${questions.length} questions scored (${corpus.skipped.abstention} abstention, ${corpus.skipped.noEvidence} without marked evidence skipped)`,
  );

  const cleanups: (() => Promise<void>)[] = [];
  try {
    const environment = await prepareEnvironment(log, (cleanup) => {
      if (!args.keep) cleanups.push(cleanup);
    });
    if (args.keep) log(`keeping database ${environment.databaseName}`);
    const bench = await startApiApp(environment.databaseUrl, environment.redisUrl);
    cleanups.push(() => bench.app.close());
    const ingested = await ingest(bench, corpus.turns, log);
    const recall = bench.app.get(MemoryRecall, { strict: false });
    const context = bench.app.get(TenantContext);

    const rows: { mode: SearchMode; metrics: Metrics; ms: number; byType: Record<string, Metrics> }[] = [];
    const dumped: Record<string, unknown>[] = [];
    for (const mode of args.modes) {
      const results: { type: string; relevant: ReadonlySet<string>; ranked: string[] }[] = [];
      const started = performance.now();
      for (const question of questions) {
        const { results: hits } = await context.run(ingested.tenant, () =>
          recall.recall(ingested.project, {
            query: question.question,
            mode,
            limit: 10,
            explain: false,
            filter: {},
            recordAccess: false,
          }),
        );
        const ranked = hits.map((hit) => ingested.keyOf.get(hit.memory.id) ?? '');
        results.push({ type: question.type, relevant: question.relevant, ranked });
        dumped.push({
          mode,
          id: question.id,
          type: question.type,
          question: question.question,
          relevant: [...question.relevant],
          ranked,
        });
      }
      const ms = (performance.now() - started) / Math.max(questions.length, 1);
      const types = [...new Set(results.map((r) => r.type))].sort();
      const byType = Object.fromEntries(types.map((type) => [type, score(results.filter((r) => r.type === type))]));
      rows.push({ mode, metrics: score(results), ms, byType });
      log(`${mode}: done in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    }

    process.stdout.write(
      `\nLongMemEval (oracle), ${corpus.turns.length} turns pooled, ${questions.length} questions\n\n`,
    );
    process.stdout.write(`${table(rows)}\n`);
    for (const row of rows) {
      process.stdout.write(`\n${row.mode} by question type:\n`);
      process.stdout.write(
        `${table(Object.entries(row.byType).map(([type, metrics]) => ({ mode: type.slice(0, 10), metrics, ms: row.ms })))}\n`,
      );
    }
    if (args.dump) {
      const contentOf = new Map(corpus.turns.map((turn) => [turn.key, turn.content]));
      const lines = dumped.map((row) => {
        const text = (keys: unknown) => (keys as string[]).map((key) => ({ key, content: contentOf.get(key) ?? '' }));
        return JSON.stringify({ ...row, relevant: text(row.relevant), ranked: text(row.ranked) });
      });
      writeFileSync(args.dump, `${lines.join('\n')}\n`);
      log(`per-question rankings written to ${args.dump}`);
    }
    const timestamp = new Date().toISOString();
    const file = writeEvalResults(root, timestamp, {
      timestamp,
      commit: gitCommit(root),
      machine: machineInfo(),
      data: args.data,
      turns: corpus.turns.length,
      questions: questions.length,
      skipped: corpus.skipped,
      ingestSeconds: ingested.seconds,
      results: rows,
    });
    process.stdout.write(`\nresults: ${file} (also bench/results/eval-latest.json)\n`);
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
