import { BASELINE, type EvalRun, type RankerResult } from './evaluate';
import { METRIC_NAMES, type Scores } from './metrics';
import { formatRerankStats } from './rerank-stats';
import { formatRewriteStats } from './rewrite-stats';

/** Wide enough for `semantic+rerank`. */
const NAME_WIDTH = 16;
const CELL_WIDTH = 10;

function cell(name: string, value: number): string {
  return (name === 'MRR' ? value.toFixed(3) : `${(value * 100).toFixed(1)}%`).padStart(CELL_WIDTH);
}

/** Two decimals and an x, as the benchmarks print ratios; n/a where BM25 scored 0. */
function ratioCell(ratio: number | null | undefined): string {
  return (ratio === null || ratio === undefined ? 'n/a' : `${ratio.toFixed(2)}x`).padStart(CELL_WIDTH);
}

/**
 * BM25 first, then each Cairn mode with its ratio to BM25 on the line under it, so every figure
 * is read beside the baseline measured on the same turns in the same run.
 */
function table(
  names: readonly string[],
  rows: readonly { ranker: RankerResult; scores: Scores; ratios?: Record<string, number | null> }[],
  msColumn: boolean,
): string {
  const header =
    'ranker'.padEnd(NAME_WIDTH) +
    names.map((name) => name.padStart(CELL_WIDTH)).join('') +
    (msColumn ? 'ms/query'.padStart(CELL_WIDTH + 2) : '');
  const lines = [header, '-'.repeat(header.length)];
  for (const { ranker, scores, ratios } of rows) {
    lines.push(
      ranker.name.padEnd(NAME_WIDTH) +
        names.map((name) => cell(name, scores.values[name] ?? 0)).join('') +
        (msColumn ? ranker.msPerQuery.toFixed(1).padStart(CELL_WIDTH + 2) : ''),
    );
    if (ratios)
      lines.push(`  ÷ ${BASELINE}`.padEnd(NAME_WIDTH) + names.map((name) => ratioCell(ratios[name])).join(''));
  }
  return lines.join('\n');
}

/** The run's figures as text: overall, then per question type. */
export function formatRun(run: EvalRun, title: string): string {
  const names = METRIC_NAMES[run.haystack];
  const out: string[] = [title, ''];
  if (run.haystack === 'per-question') {
    out.push(
      'sessions ranked by their first turn in the top ' +
        `${run.depth} turns; any@5 / all@5: one / every answer session among the first five; hit@10: an evidence turn in the top 10`,
      '',
    );
    if (run.sessions && run.sessions.withoutAnswer === 0) {
      out.push(
        `note: none of the ${run.sessions.total} haystack sessions is a distractor (every one holds an answer, as in the oracle split),`,
        `so any@5 and all@5 are near certain whatever the ranking; hit@10 (over ${(run.memories / Math.max(run.projects, 1)).toFixed(0)} turns a question on average) is the informative figure.`,
        '',
      );
    }
  }
  out.push(
    table(
      names,
      run.rankers.map((ranker) => ({ ranker, scores: ranker.overall, ratios: ranker.ratioToBm25?.overall })),
      true,
    ),
  );
  if (run.reranker) {
    out.push(
      '',
      `reranked rows (<mode>+rerank): the same questions through recall with a reranker, after the fused rows`,
    );
    for (const ranker of run.rankers) {
      if (ranker.rerank) out.push(`  ${formatRerankStats(ranker.name, run.reranker, ranker.rerank)}`);
    }
  }
  if (run.rewriter) {
    out.push(
      '',
      'rewritten rows (<mode>+rewrite): the same questions through recall with QUERY_REWRITE=on, after the fused rows',
    );
    for (const ranker of run.rankers) {
      if (ranker.rewrite) out.push(`  ${formatRewriteStats(ranker.name, run.rewriter, ranker.rewrite)}`);
    }
  } else {
    out.push('', 'query rewrite: off (--rewrite URL --rewrite-model NAME adds <mode>+rewrite rows)');
  }
  const types = Object.keys(run.rankers[0]?.byType ?? {});
  for (const type of types) {
    const questions = run.rankers[0]?.byType[type]?.questions ?? 0;
    out.push('', `${type} (${questions} questions)`);
    out.push(
      table(
        names,
        run.rankers.map((ranker) => ({
          ranker,
          scores: ranker.byType[type] ?? { questions: 0, values: {} },
          ratios: ranker.ratioToBm25?.byType[type],
        })),
        false,
      ),
    );
  }
  if (run.immediate) out.push('', immediateTable(run));
  return `${out.join('\n')}\n`;
}

/** Hybrid recall right after the burst (only short turns embedded) beside the settled run, overall and per type. */
function immediateTable(run: EvalRun): string {
  const immediate = run.immediate!;
  const settled = run.rankers.find((ranker) => ranker.name === 'hybrid');
  const metric = METRIC_NAMES[run.haystack].includes('recall@10') ? 'recall@10' : 'hit@10';
  const header =
    'question type'.padEnd(28) + 'immediate'.padStart(CELL_WIDTH + 2) + 'settled'.padStart(CELL_WIDTH + 2) + '  ratio';
  const line = (type: string, now: Scores | undefined, later: Scores | undefined) => {
    const a = now?.values[metric] ?? 0;
    const b = later?.values[metric] ?? 0;
    return (
      type.padEnd(28) +
      cell(metric, a).padStart(CELL_WIDTH + 2) +
      cell(metric, b).padStart(CELL_WIDTH + 2) +
      `  ${b > 0 ? `${(a / b).toFixed(2)}x` : 'n/a'}`
    );
  };
  const lines = [
    `Searchable by meaning at once: hybrid ${metric} immediately after the burst (${immediate.embedded} of ` +
      `${immediate.memories} turns embedded: those of at most ${immediate.maxChars} characters, as inline ` +
      'embedding does; the rest by keyword only) and settled (every turn embedded)',
    header,
    '-'.repeat(header.length),
    line('all', immediate.hybrid.overall, settled?.overall),
  ];
  for (const type of Object.keys(immediate.hybrid.byType)) {
    lines.push(line(type, immediate.hybrid.byType[type], settled?.byType[type]));
  }
  if (!settled) lines.push('(settled: hybrid was not among --modes)');
  return lines.join('\n');
}
