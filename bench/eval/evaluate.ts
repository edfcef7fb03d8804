/**
 * One evaluation run, shared by `npm run eval` (bench/eval/run.ts) and the CI subset's jest
 * test: store the turns, ask every question in every Cairn mode and of the BM25 baseline over
 * the same turns, and score both the same way.
 */
import { MemoryRecall, SYSTEM_VIEWER } from '@cairn/memory';
import { type SearchMode } from '@cairn/search';
import { TenantEntry } from '@cairn/tenancy';
import { type BenchApp } from '../lib/app';
import { Bm25Index } from './bm25';
import { ingest, POOLED_PROJECT, type ProjectTurns } from './ingest';
import { type EvalCorpus, type EvalQuestion, sessionOf, type Turn } from './longmemeval';
import { type Haystack, RANKING_DEPTH, type Ranking, ratios, type Scores, scoreByType } from './metrics';

export const BASELINE = 'bm25';
export type RankerName = SearchMode | typeof BASELINE;

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
  /** BM25 first, then the Cairn modes in the order asked. */
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

  const recall = bench.app.get(MemoryRecall, { strict: false });
  const entry = bench.app.get(TenantEntry);
  const ask = async (mode: SearchMode): Promise<RankerResult> => {
    const started = performance.now();
    const ranked: string[][] = [];
    for (const [index, question] of questions.entries()) {
      const { results: hits } = await entry.run(ingested.tenant, () =>
        recall.recall(projectOf(index)?.slug ?? '', SYSTEM_VIEWER, {
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
      ranked.push(hits.map((hit) => ingested.keyOf.get(hit.memory.id) ?? ''));
    }
    log(`${mode}: done in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    return withRatios(result(mode, questions, ranked, performance.now() - started, haystack), baseline);
  };
  let immediate: ImmediateResult | undefined;
  if (ingested.embedRest) {
    log(`immediately after the burst: only turns of at most ${maxChars} characters have vectors`);
    const { rankings: _rankings, ...hybrid } = await ask('hybrid');
    const rest = await ingested.embedRest();
    const memories = ingested.keyOf.size;
    immediate = { maxChars, embedded: memories - rest, memories, hybrid };
    log(`settled: the other ${rest} turns embedded`);
  }
  const rankers: RankerResult[] = [baseline];
  for (const mode of options.modes) rankers.push(await ask(mode));
  return {
    haystack,
    embedder: ingested.embedder,
    depth,
    projects: projects.length,
    memories: ingested.keyOf.size,
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
