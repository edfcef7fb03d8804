/**
 * One evaluation run, shared by `npm run eval` (bench/eval/run.ts) and the CI subset's jest
 * test: store the turns, ask every question in every Cairn mode and of the BM25 baseline over
 * the same turns, and score both the same way.
 */
import { MemoryRecall, SYSTEM_VIEWER } from '@cairn/memory';
import { type RerankReport, type SearchMode } from '@cairn/search';
import { TenantEntry, type TenantRef } from '@cairn/tenancy';
import { type BenchApp } from '../lib/app';
import { Bm25Index } from './bm25';
import { ingest, POOLED_PROJECT, type ProjectTurns } from './ingest';
import { type EvalCorpus, type EvalQuestion, sessionOf, type Turn } from './longmemeval';
import { type Haystack, RANKING_DEPTH, type Ranking, ratios, type Scores, scoreByType } from './metrics';
import { type RerankerSetup, rerankerSetup, type RerankStats, rerankStats } from './rerank-stats';
import { type RewriterSetup, rewriterSetup, type RewriteStats, rewriteStats } from './rewrite-stats';

export const BASELINE = 'bm25';
/** Suffix of a mode's row asked through the app with a reranker. */
export const RERANKED = '+rerank';
/** Suffix of a mode's row asked through the app with the query rewrite on. */
export const REWRITTEN = '+rewrite';
export type RankerName =
  SearchMode | `${SearchMode}${typeof RERANKED}` | `${SearchMode}${typeof REWRITTEN}` | typeof BASELINE;

export interface RankerResult {
  readonly name: RankerName;
  readonly msPerQuery: number;
  readonly overall: Scores;
  readonly byType: Record<string, Scores>;
  /** Cairn / BM25 per metric, overall and per type (absent on the baseline's own row). */
  readonly ratioToBm25?: {
    readonly overall: Record<string, number | null>;
    readonly byType: Record<string, Record<string, number | null>>;
  };
  /** On a reranked row: what the reranker did over these questions. */
  readonly rerank?: RerankStats;
  /** On a rewritten row: how many questions were ranked with the model's sub-queries, how many fell back. */
  readonly rewrite?: RewriteStats;
  /** Every question's ranked turn keys, for `--dump`; left out of the results file. */
  readonly rankings: readonly { readonly id: string; readonly ranked: readonly string[] }[];
}

export interface EvalRun {
  readonly haystack: Haystack;
  /** Model id of the embedder that made the vectors. */
  readonly embedder: string;
  /** Turns each ranker returns per question. */
  readonly depth: number;
  readonly projects: number;
  /** Memories stored (a session shared by two questions is stored twice per-question). */
  readonly memories: number;
  readonly seconds: { insert: number; embed: number; bm25Index: number };
  /**
   * Per-question: the haystack sessions asked over, and how many of them hold no answer. The
   * oracle split keeps only answer sessions, so there session recall has nothing to rule out.
   */
  readonly sessions?: { readonly total: number; readonly withoutAnswer: number };
  /** The reranker of the reranked rows, when there are some. */
  readonly reranker?: RerankerSetup;
  /** The rewrite model of the rewritten rows, when there are some (absent: the query rewrite was off). */
  readonly rewriter?: RewriterSetup;
  /** BM25 first, then the Cairn modes in the order asked (each followed by its reranked row, if any). */
  readonly rankers: readonly RankerResult[];
  /** With `immediate`: hybrid recall right after the burst, before the queue embedded the long turns. */
  readonly immediate?: ImmediateResult;
}

/**
 * Hybrid recall "immediately after the burst": only the turns inline embedding embeds at once
 * (embedding text up to EMBEDDING_INLINE_MAX_CHARS) have a vector, the longer ones are found by
 * keyword until the queue reaches them. The settled figures are the run's own `hybrid` row.
 */
export interface ImmediateResult {
  readonly maxChars: number;
  /** Memories with a vector when asked, and all of them. */
  readonly embedded: number;
  readonly memories: number;
  readonly hybrid: Omit<RankerResult, 'rankings'>;
}

export interface EvalOptions {
  readonly modes: readonly SearchMode[];
  readonly haystack: Haystack;
  readonly log: (line: string) => void;
  /**
   * The api app again, over the same database, configured with a reranker (RERANK_URL): each
   * mode is then also asked through it, a `<mode>+rerank` row after the fused one, so the two
   * orders are scored on the same stored turns in the same run.
   */
  readonly reranked?: Pick<BenchApp, 'app' | 'config'>;
  /** Likewise with QUERY_REWRITE=on and a chat model: `<mode>+rewrite` rows. */
  readonly rewritten?: Pick<BenchApp, 'app' | 'config'>;
  /** Also ask in hybrid mode before the long turns have vectors (ImmediateResult). */
  readonly immediate?: boolean;
}

/** Pooled: every turn in one project. Per-question: each question's own sessions in a project of its own. */
function projectsFor(corpus: EvalCorpus, questions: readonly EvalQuestion[], haystack: Haystack): ProjectTurns[] {
  if (haystack === 'pooled') return [{ slug: POOLED_PROJECT, turns: corpus.turns }];
  const bySession = new Map<string, Turn[]>();
  for (const turn of corpus.turns) {
    const list = bySession.get(sessionOf(turn.key)) ?? [];
    list.push(turn);
    bySession.set(sessionOf(turn.key), list);
  }
  // Slugs from the position: question ids carry underscores, which slugs do not allow.
  return questions.map((question, index) => ({
    slug: `q${String(index).padStart(4, '0')}`,
    turns: question.sessions.flatMap((session) => bySession.get(session) ?? []),
  }));
}

function result(
  name: RankerName,
  questions: readonly EvalQuestion[],
  ranked: readonly string[][],
  ms: number,
  haystack: Haystack,
  extra: { rerank?: RerankStats; rewrite?: RewriteStats } = {},
): RankerResult {
  const rankings: Ranking[] = questions.map((question, index) => ({
    type: question.type,
    relevant: question.relevant,
    answerSessions: question.answerSessions,
    ranked: ranked[index] ?? [],
  }));
  return {
    name,
    msPerQuery: ms / Math.max(questions.length, 1),
    ...scoreByType(rankings, haystack),
    ...(extra.rerank ? { rerank: extra.rerank } : {}),
    ...(extra.rewrite ? { rewrite: extra.rewrite } : {}),
    rankings: questions.map((question, index) => ({ id: question.id, ranked: ranked[index] ?? [] })),
  };
}

function withRatios(row: RankerResult, baseline: RankerResult): RankerResult {
  return {
    ...row,
    ratioToBm25: {
      overall: ratios(row.overall, baseline.overall),
      byType: Object.fromEntries(
        Object.entries(row.byType).map(([type, scores]) => [
          type,
          ratios(scores, baseline.byType[type] ?? { questions: 0, values: {} }),
        ]),
      ),
    },
  };
}

export async function evaluate(
  bench: Pick<BenchApp, 'app' | 'config'>,
  corpus: EvalCorpus,
  questions: readonly EvalQuestion[],
  options: EvalOptions,
): Promise<EvalRun> {
  const { haystack, log } = options;
  const depth = RANKING_DEPTH[haystack];
  const projects = projectsFor(corpus, questions, haystack);
  const maxChars = bench.config.embeddings.inline.maxChars;
  // A turn's embedding text is its content (turns are stored without keywords).
  const ingested = await ingest(
    bench,
    projects,
    log,
    options.immediate ? { embedFirst: (content) => content.length <= maxChars } : {},
  );
  // The question at index i is asked in projects[i] (per-question) or in the one pooled project.
  const projectOf = (index: number) => (haystack === 'pooled' ? projects[0] : projects[index]);

  // The baseline indexes exactly the turns each project holds, keyed as Cairn's results are.
  const indexStarted = performance.now();
  const indexes = projects.map(
    (project) => new Bm25Index(project.turns.map((turn) => ({ key: turn.key, text: turn.content }))),
  );
  const bm25IndexSeconds = (performance.now() - indexStarted) / 1000;
  const bm25Started = performance.now();
  const bm25Ranked = questions.map(
    (question, index) =>
      indexes[haystack === 'pooled' ? 0 : index]?.search(question.question, depth).map((hit) => hit.key) ?? [],
  );
  const baseline = result(BASELINE, questions, bm25Ranked, performance.now() - bm25Started, haystack);
  log(`${BASELINE}: ${questions.length} questions in ${((performance.now() - bm25Started) / 1000).toFixed(1)} s`);

  let immediate: ImmediateResult | undefined;
  if (ingested.embedRest) {
    log(`immediately after the burst: only turns of at most ${maxChars} characters have vectors`);
    const started = performance.now();
    const asked = await ask(
      bench.app,
      ingested.tenant,
      questions,
      'hybrid',
      depth,
      (index) => projectOf(index)?.slug ?? '',
    );
    const ranked = asked.map((hits) => hits.memoryIds.map((id) => ingested.keyOf.get(id) ?? ''));
    const { rankings: _rankings, ...hybrid } = withRatios(
      result('hybrid', questions, ranked, performance.now() - started, haystack),
      baseline,
    );
    const rest = await ingested.embedRest();
    const memories = ingested.keyOf.size;
    immediate = { maxChars, embedded: memories - rest, memories, hybrid };
    log(`settled: the other ${rest} turns embedded`);
  }
  const rankers: RankerResult[] = [baseline];
  const apps = [
    { app: bench.app, suffix: '' },
    ...(options.reranked ? [{ app: options.reranked.app, suffix: RERANKED }] : []),
    ...(options.rewritten ? [{ app: options.rewritten.app, suffix: REWRITTEN }] : []),
  ];
  for (const mode of options.modes) {
    for (const { app, suffix } of apps) {
      const name = `${mode}${suffix}` as RankerName;
      const started = performance.now();
      const asked = await ask(app, ingested.tenant, questions, mode, depth, (index) => projectOf(index)?.slug ?? '');
      const ranked = asked.map((hits) => hits.memoryIds.map((id) => ingested.keyOf.get(id) ?? ''));
      const ms = performance.now() - started;
      const extra =
        suffix === RERANKED
          ? { rerank: rerankStats(asked.map((hits) => hits.rerank)) }
          : suffix === REWRITTEN
            ? { rewrite: rewriteStats(asked.map((hits) => hits.notes)) }
            : {};
      rankers.push(withRatios(result(name, questions, ranked, ms, haystack, extra), baseline));
      log(`${name}: done in ${(ms / 1000).toFixed(1)} s`);
    }
  }
  const reranker = options.reranked ? rerankerSetup(options.reranked.config) : undefined;
  const rewriter = options.rewritten ? rewriterSetup(options.rewritten.config) : undefined;
  return {
    haystack,
    embedder: ingested.embedder,
    depth,
    projects: projects.length,
    memories: ingested.keyOf.size,
    ...(reranker ? { reranker } : {}),
    ...(rewriter ? { rewriter } : {}),
    seconds: { ...ingested.seconds, bm25Index: bm25IndexSeconds },
    ...(haystack === 'per-question'
      ? {
          sessions: {
            total: questions.reduce((n, q) => n + q.sessions.length, 0),
            withoutAnswer: questions.reduce(
              (n, q) => n + q.sessions.filter((id) => !q.answerSessions.has(id)).length,
              0,
            ),
          },
        }
      : {}),
    rankers,
    ...(immediate ? { immediate } : {}),
  };
}

/** Every question asked of one app's recall in one mode: the memories found, its reranking report and notes. */
async function ask(
  app: BenchApp['app'],
  tenant: TenantRef,
  questions: readonly EvalQuestion[],
  mode: SearchMode,
  depth: number,
  projectOf: (index: number) => string,
): Promise<{ memoryIds: string[]; rerank: RerankReport | undefined; notes: readonly string[] }[]> {
  const recall = app.get(MemoryRecall, { strict: false });
  const entry = app.get(TenantEntry);
  const answers: { memoryIds: string[]; rerank: RerankReport | undefined; notes: readonly string[] }[] = [];
  for (const [index, question] of questions.entries()) {
    const { results, report } = await entry.run(tenant, () =>
      recall.recall(projectOf(index), SYSTEM_VIEWER, {
        query: question.question,
        mode,
        limit: depth,
        explain: false,
        filter: { scope: 'project' },
        recordAccess: false,
        // Asked on the question's date, as an agent asks "now".
        asOf: { instant: question.date, offsetMinutes: 0 },
      }),
    );
    answers.push({ memoryIds: results.map((hit) => hit.memory.id), rerank: report.rerank, notes: report.notes });
  }
  return answers;
}
