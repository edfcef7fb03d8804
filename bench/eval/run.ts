/**
 * `npm run eval`: retrieval quality on LongMemEval (oracle split), one memory per turn; each
 * question's evidence turns (`has_answer`) are the relevant items. Every Cairn search mode is
 * printed beside Okapi BM25 computed over the same turns and questions in the same run, with
 * Cairn/BM25 ratios, overall and per question type.
 *
 *   --haystack pooled        every session of every question in one project (the default):
 *                            recall@1/5/10, hit@k, MRR over ~10.9k turns
 *   --haystack per-question  each question's own sessions in a project of their own (one
 *                            agent's history): session recall any@5 / all@5 and answer-turn hit@10
 *   --provider hash|local    the embedder (EMBEDDING_PROVIDER) for the run, default the
 *                            environment's EMBEDDING_PROVIDER or hash; local needs the model files
 *                            that `npm run models` fetches
 *   --model NAME             with --provider local: the catalogue's model (EMBEDDING_MODEL), e.g.
 *                            bge-small-en-v1.5; default the environment's EMBEDDING_MODEL or the default
 *   --reranker URL           also ask every question through recall with this reranker (RERANK_URL):
 *                            each mode gets a `<mode>+rerank` row beside its fused one, with the
 *                            calls that fell back to the fused order and the rerank wait p50/p95
 *   --reranker-model NAME    RERANK_MODEL (required with the cohere API; TEI's only labels results)
 *   --reranker-api cohere|tei  RERANK_API (default cohere: POST /v1/rerank; tei: POST /rerank)
 *   --rerank-candidates N    RERANK_CANDIDATES (default the app's, 100)
 *   --rerank-batch N         RERANK_BATCH_SIZE (default the app's, 32)
 *   --rerank-timeout MS      RERANK_TIMEOUT_MS (default the app's, 800); RERANK_API_KEY is read
 *                            from the environment
 *   --rewrite URL            also ask every question through recall with the query rewrite on
 *                            (QUERY_REWRITE=on, the chat model at URL: Ollama's base URL, or an
 *                            OpenAI-compatible one with its /v1): each mode gets a `<mode>+rewrite`
 *                            row, with how many questions fell back to the model-free parts
 *   --rewrite-model NAME     CHAT_MODEL (required with --rewrite)
 *   --rewrite-api ollama|openai  CHAT_PROVIDER (default ollama); OPENAI_API_KEY is read from the environment
 *   --rewrite-timeout MS     QUERY_REWRITE_TIMEOUT_MS (default the app's, 1500)
 *   --settled-only           skip the "immediately after the burst" pass: by default hybrid is
 *                            asked once more before the turns longer than EMBEDDING_INLINE_MAX_CHARS
 *                            have vectors (what inline embedding leaves to the queue), reported
 *                            beside the settled figures per question type (docs/retrieval.md)
 *   --relevance              instead: recall's calibrated relevance threshold on the labelled set
 *                            (bench/hooks/relevance-set.json) with --provider's embedder: precision,
 *                            recall and the curve around the default threshold (docs/hooks.md)
 *   --secrets                instead: secret detection on the labelled corpus
 *                            (test/fixtures/secrets/corpus.jsonl): precision, recall and false
 *                            positives overall and per type, and what a scan costs; no database
 */
import 'reflect-metadata';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { SEARCH_MODES, type SearchMode } from '@cairn/search';
import { defaultSecretRules, GITLEAKS_RULES, SecretScanner } from '@cairn/secret-detection';
import { startApiApp } from '../lib/app';
import { prepareEnvironment } from '../lib/environment';
import { gitCommit, machineInfo, repositoryRoot } from '../lib/report';
import { BM25_B, BM25_K1 } from './bm25';
import { evaluate } from './evaluate';
import { defaultEvalData, missingEvalData } from './eval-data';
import { type EvalQuestion, loadLongMemEval } from './longmemeval';
import { type Haystack, HAYSTACKS } from './metrics';
import { formatRelevanceRun, runRelevanceEval } from '../hooks/relevance-run';
import { formatRun } from './print';
import { RERANK_APIS } from '@cairn/providers';
import {
  defaultProvider,
  type Provider,
  PROVIDERS,
  providerEnv,
  type RerankerArgs,
  rerankerEnv,
  REWRITE_PROVIDERS,
  type RewriteArgs,
  rewriteEnv,
} from './provider';
import { loadSecretsCorpus, SECRETS_CORPUS_FILE } from './secrets-corpus';
import { evaluateSecrets, formatSecretsRun } from './secrets-eval';
import { formatTimings, measureScanTimes } from './secrets-timing';

const log = (line: string) => process.stderr.write(`[eval] ${line}\n`);

interface EvalArgs {
  data: string;
  modes: SearchMode[];
  questions: number;
  provider: Provider;
  /** The local model's name (EMBEDDING_MODEL) with --provider local. */
  model?: string;
  haystack: Haystack;
  /** Keep the throwaway database for inspection (needs DATABASE_URL/REDIS_URL, else it dies with the services). */
  keep: boolean;
  /** Write every question's ranked turns here (JSON Lines), for looking at misses. */
  dump?: string;
  /** Evaluate secret detection instead of retrieval (secrets-eval.ts). */
  secrets: boolean;
  /** Calibrate and measure recall's relevance threshold on the labelled set instead (bench/hooks). */
  relevance: boolean;
  /** The reranker of the `<mode>+rerank` rows (`--reranker` and its companions). */
  reranker?: Partial<RerankerArgs>;
  /** The chat model of the `<mode>+rewrite` rows (`--rewrite` and its companions). */
  rewrite?: Partial<RewriteArgs>;
  /** Skip the hybrid pass immediately after the burst (before the long turns have vectors). */
  settledOnly: boolean;
}

const USAGE =
  'use --data PATH, --modes hybrid,keyword,semantic, --questions N, --provider hash|local, --model NAME, ' +
  '--haystack pooled|per-question, --keep, --dump FILE, --settled-only, --secrets, --relevance, --reranker URL, ' +
  '--reranker-model NAME, --reranker-api cohere|tei, --rerank-candidates N, --rerank-batch N, --rerank-timeout MS, ' +
  '--rewrite URL, --rewrite-model NAME, --rewrite-api ollama|openai, --rewrite-timeout MS';

/** A whole number from `--flag`; the app's own settings check the range. */
function count(flag: string, value: string): number {
  const number = Number(value);
  if (!Number.isInteger(number) || number < 1) throw new Error(`${flag} takes a positive whole number`);
  return number;
}

function oneOf<T extends string>(flag: string, value: string, allowed: readonly T[]): T {
  if (!(allowed as readonly string[]).includes(value)) throw new Error(`${flag} takes ${allowed.join(' or ')}`);
  return value as T;
}

function parseArgs(argv: readonly string[], root: string): EvalArgs {
  const args: EvalArgs = {
    data: defaultEvalData(root),
    modes: [...SEARCH_MODES],
    questions: Number.POSITIVE_INFINITY,
    // EMBEDDING_PROVIDER when it names one of the two (as `npm run bench` reads it), else the
    // built-in embedder, which needs no files and repeats exactly.
    provider: defaultProvider(),
    model: process.env.EMBEDDING_MODEL || undefined,
    haystack: 'pooled',
    keep: false,
    secrets: false,
    relevance: false,
    settledOnly: false,
  };
  for (let i = 0; i < argv.length; i += 1) {
    const [flag, inline] = (argv[i] ?? '').split('=', 2);
    if (flag === '--keep' || flag === '--secrets' || flag === '--relevance' || flag === '--settled-only') {
      if (flag === '--keep') args.keep = true;
      else if (flag === '--secrets') args.secrets = true;
      else if (flag === '--settled-only') args.settledOnly = true;
      else args.relevance = true;
      continue;
    }
    const value = inline ?? argv[++i] ?? '';
    if (flag === '--data') args.data = resolve(value);
    else if (flag === '--dump') args.dump = resolve(value);
    else if (flag === '--modes') args.modes = value.split(',').map((mode) => oneOf(flag, mode, SEARCH_MODES));
    else if (flag === '--questions') args.questions = Math.max(1, Number(value));
    else if (flag === '--provider') args.provider = oneOf(flag, value, PROVIDERS);
    else if (flag === '--model') args.model = value;
    else if (flag === '--haystack') args.haystack = oneOf(flag, value, HAYSTACKS);
    else if (flag === '--reranker') args.reranker = { ...args.reranker, url: value };
    else if (flag === '--reranker-model') args.reranker = { ...args.reranker, model: value };
    else if (flag === '--reranker-api') args.reranker = { ...args.reranker, api: oneOf(flag, value, RERANK_APIS) };
    else if (flag === '--rerank-candidates') args.reranker = { ...args.reranker, candidates: count(flag, value) };
    else if (flag === '--rerank-batch') args.reranker = { ...args.reranker, batchSize: count(flag, value) };
    else if (flag === '--rerank-timeout') args.reranker = { ...args.reranker, timeoutMs: count(flag, value) };
    else if (flag === '--rewrite') args.rewrite = { ...args.rewrite, url: value };
    else if (flag === '--rewrite-model') args.rewrite = { ...args.rewrite, model: value };
    else if (flag === '--rewrite-api')
      args.rewrite = { ...args.rewrite, provider: oneOf(flag, value, REWRITE_PROVIDERS) };
    else if (flag === '--rewrite-timeout') args.rewrite = { ...args.rewrite, timeoutMs: count(flag, value) };
    else throw new Error(`unknown argument ${flag} (${USAGE})`);
  }
  if (args.reranker && !args.reranker.url) throw new Error('the --rerank* and --reranker-* flags need --reranker URL');
  if (args.rewrite && !args.rewrite.url) throw new Error('the --rewrite-* flags need --rewrite URL');
  return args;
}

/** The rewriting app's settings, when `--rewrite` asks for one. */
function rewrittenEnv(args: EvalArgs): Record<string, string> | undefined {
  const rewrite = args.rewrite;
  if (!rewrite?.url) return undefined;
  return rewriteEnv({ ...rewrite, url: rewrite.url, provider: rewrite.provider ?? 'ollama' });
}

/** The reranked app's settings, when `--reranker` asks for one. */
function rerankedEnv(args: EvalArgs): Record<string, string> | undefined {
  const reranker = args.reranker;
  if (!reranker?.url) return undefined;
  return rerankerEnv({ ...reranker, url: reranker.url, api: reranker.api ?? 'cohere' });
}

/** Beside, not over, the benchmark's latest.json; bench/results/*.json stays git-ignored. */
function writeEvalResults(root: string, timestamp: string, payload: unknown, prefix = 'eval'): string {
  const dir = join(root, 'bench', 'results');
  mkdirSync(dir, { recursive: true });
  const text = `${JSON.stringify(payload, null, 2)}\n`;
  const file = join(dir, `${prefix}-${timestamp.replace(/:/g, '-')}.json`);
  writeFileSync(file, text);
  writeFileSync(join(dir, `${prefix}-latest.json`), text);
  return relative(root, file);
}

/** `--secrets`: the scanner over the committed corpus; no services are started. */
function secretsEval(root: string): void {
  const corpusFile = join(root, SECRETS_CORPUS_FILE);
  const scanner = new SecretScanner(defaultSecretRules());
  const run = evaluateSecrets(scanner, loadSecretsCorpus(corpusFile));
  const timings = measureScanTimes(scanner, loadSecretsCorpus(corpusFile));
  process.stdout.write(
    `\n${formatSecretsRun(run)}\nScan time (${GITLEAKS_RULES.rules.length + 1} rules):\n${formatTimings(timings)}`,
  );
  const timestamp = new Date().toISOString();
  const file = writeEvalResults(
    root,
    timestamp,
    {
      timestamp,
      commit: gitCommit(root),
      machine: machineInfo(),
      corpus: SECRETS_CORPUS_FILE,
      rules: { source: GITLEAKS_RULES.source, count: GITLEAKS_RULES.rules.length + 1 },
      ...run,
      timings,
    },
    'eval-secrets',
  );
  process.stdout.write(`\nresults: ${file} (also bench/results/eval-secrets-latest.json)\n`);
}

/** `--relevance`: recall's relevance threshold on the labelled set (bench/hooks), with the chosen provider. */
async function relevanceEval(root: string, args: EvalArgs): Promise<void> {
  const env = await providerEnv(args.provider, root, args.model);
  const cleanups: (() => Promise<void>)[] = [];
  try {
    const environment = await prepareEnvironment(log, (cleanup) => cleanups.push(cleanup));
    const bench = await startApiApp(environment.databaseUrl, environment.redisUrl, env);
    cleanups.push(() => bench.app.close());
    const result = await runRelevanceEval(bench, root, { dump: args.dump, log });
    process.stdout.write(`\n${formatRelevanceRun(result)}`);
    const timestamp = new Date().toISOString();
    const file = writeEvalResults(
      root,
      timestamp,
      { timestamp, commit: gitCommit(root), machine: machineInfo(), provider: args.provider, ...result },
      `eval-relevance-${args.provider}`,
    );
    process.stdout.write(`results: ${file} (also bench/results/eval-relevance-${args.provider}-latest.json)\n`);
  } finally {
    for (const cleanup of cleanups.reverse()) await cleanup().catch((error: Error) => log(`cleanup: ${error.message}`));
  }
}

async function main(): Promise<void> {
  const root = repositoryRoot(__dirname);
  const args = parseArgs(process.argv.slice(2), root);
  if (args.secrets) {
    secretsEval(root);
    return;
  }
  if (args.relevance) {
    await relevanceEval(root, args);
    return;
  }
  if (!existsSync(args.data)) throw missingEvalData(args.data);
  const env = await providerEnv(args.provider, root, args.model);
  const rerankEnv = rerankedEnv(args);
  const rewriteSettings = rewrittenEnv(args);
  const corpus = loadLongMemEval(args.data);
  const questions: EvalQuestion[] = corpus.questions.slice(0, args.questions);
  log(
    `${corpus.turns.length} turns, ${questions.length} questions scored (${corpus.skipped.abstention} abstention, ${corpus.skipped.noEvidence} without marked evidence skipped); ` +
      `haystack ${args.haystack}, provider ${args.provider}`,
  );

  const cleanups: (() => Promise<void>)[] = [];
  try {
    const environment = await prepareEnvironment(log, (cleanup) => {
      if (!args.keep) cleanups.push(cleanup);
    });
    if (args.keep) log(`keeping database ${environment.databaseName}`);
    const bench = await startApiApp(environment.databaseUrl, environment.redisUrl, env);
    cleanups.push(() => bench.app.close());
    // The same app with a reranker, over the same database: it asks what the first one stored.
    const reranked = rerankEnv
      ? await startApiApp(environment.databaseUrl, environment.redisUrl, { ...env, ...rerankEnv })
      : undefined;
    if (reranked) {
      cleanups.push(() => reranked.app.close());
      const { api, model, candidates, batchSize, timeoutMs } = reranked.config.rerank;
      log(
        `reranker ${model} (${api} API), ${candidates} candidates in batches of ${batchSize}, ${timeoutMs} ms budget`,
      );
    }
    // And with the query rewrite on, over the same database too.
    const rewritten = rewriteSettings
      ? await startApiApp(environment.databaseUrl, environment.redisUrl, { ...env, ...rewriteSettings })
      : undefined;
    if (rewritten) {
      cleanups.push(() => rewritten.app.close());
      const { chat, queryRewrite } = rewritten.config;
      log(`query rewrite by ${chat.model} (${chat.provider}), ${queryRewrite.timeoutMs} ms budget`);
    }
    const run = await evaluate(bench, corpus, questions, {
      modes: args.modes,
      haystack: args.haystack,
      log,
      ...(reranked ? { reranked } : {}),
      ...(rewritten ? { rewritten } : {}),
      immediate: !args.settledOnly,
    });

    const where =
      args.haystack === 'pooled'
        ? `${run.memories} turns pooled in one project`
        : `each question's own sessions in its own project (${run.projects} projects, ${run.memories} turns in all)`;
    process.stdout.write(
      `\n${formatRun(run, `LongMemEval (oracle): ${where}, ${questions.length} questions; embedder ${run.embedder} (--provider ${args.provider})${run.reranker ? `; reranker ${run.reranker.model} (${run.reranker.api})` : ''}; query rewrite ${run.rewriter ? `${run.rewriter.model} (${run.rewriter.provider})` : 'off'}`)}`,
    );
    if (args.dump) {
      const contentOf = new Map(corpus.turns.map((turn) => [turn.key, turn.content]));
      const text = (keys: Iterable<string>) => [...keys].map((key) => ({ key, content: contentOf.get(key) ?? '' }));
      const lines = run.rankers.flatMap((ranker) =>
        ranker.rankings.map(({ id, ranked }, index) => {
          const question = questions[index];
          return JSON.stringify({
            ranker: ranker.name,
            id,
            type: question?.type,
            question: question?.question,
            answerSessions: [...(question?.answerSessions ?? [])],
            relevant: text(question?.relevant ?? []),
            ranked: text(ranked),
          });
        }),
      );
      writeFileSync(args.dump, `${lines.join('\n')}\n`);
      log(`per-question rankings written to ${args.dump}`);
    }
    const timestamp = new Date().toISOString();
    const file = writeEvalResults(root, timestamp, {
      timestamp,
      commit: gitCommit(root),
      machine: machineInfo(),
      data: args.data,
      haystack: run.haystack,
      provider: args.provider,
      embedder: run.embedder,
      baseline: { name: 'bm25', k1: BM25_K1, b: BM25_B, source: 'bench/eval/bm25.ts' },
      depth: run.depth,
      ...(run.reranker ? { reranker: run.reranker } : {}),
      // Whether the `<mode>+rewrite` rows exist; their rows carry how many questions fell back.
      rewrite: run.rewriter ? { on: true, ...run.rewriter } : { on: false },
      turns: corpus.turns.length,
      projects: run.projects,
      memories: run.memories,
      questions: questions.length,
      skipped: corpus.skipped,
      seconds: run.seconds,
      ...(run.sessions ? { sessions: run.sessions } : {}),
      results: run.rankers.map(({ rankings: _rankings, ...rest }) => rest),
      ...(run.immediate ? { immediate: run.immediate } : {}),
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
