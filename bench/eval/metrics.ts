import { sessionOf } from './longmemeval';

/** One question's outcome under one ranker: its evidence and what the ranker returned, best first. */
export interface Ranking {
  readonly type: string;
  /** Evidence turn keys (`has_answer`). */
  readonly relevant: ReadonlySet<string>;
  /** `answer_session_ids`. */
  readonly answerSessions: ReadonlySet<string>;
  /** Turn keys, best first. */
  readonly ranked: readonly string[];
}

/** Averages over the questions scored, keyed by the metric's printed name, in print order. */
export interface Scores {
  readonly questions: number;
  readonly values: Record<string, number>;
}

export type Haystack = 'pooled' | 'per-question';
export const HAYSTACKS: readonly Haystack[] = ['pooled', 'per-question'];

/** Turns each ranker returns: the pooled scores look at the top 10; sessions need depth to be told apart. */
export const RANKING_DEPTH: Record<Haystack, number> = { pooled: 10, 'per-question': 50 };

/** What each haystack reports, in print order. */
export const METRIC_NAMES: Record<Haystack, readonly string[]> = {
  pooled: ['recall@1', 'recall@5', 'recall@10', 'hit@1', 'hit@5', 'hit@10', 'MRR'],
  'per-question': ['any@5', 'all@5', 'recall@1', 'recall@5', 'recall@10', 'hit@10', 'MRR'],
};

const CUTOFFS = [1, 5, 10] as const;

/** recall@k: share of a question's evidence turns in its top k; hit@k: any of them; MRR of the first. */
function turnScores({ relevant, ranked }: Ranking): Record<string, number> {
  const values: Record<string, number> = {};
  for (const k of CUTOFFS) {
    const found = ranked.slice(0, k).filter((key) => relevant.has(key)).length;
    values[`recall@${k}`] = found / relevant.size;
    values[`hit@${k}`] = found > 0 ? 1 : 0;
  }
  const first = ranked.findIndex((key) => relevant.has(key));
  values.MRR = first >= 0 ? 1 / (first + 1) : 0;
  return values;
}

/** Sessions in the order their first turn appears in the turn ranking, each once. */
export function rankSessions(ranked: readonly string[]): string[] {
  return [...new Set(ranked.map(sessionOf))];
}

/**
 * LongMemEval's session-level retrieval: any@5 = an answer session among the first five
 * sessions, all@5 = every answer session among them; plus the answer turns' recall@k, hit@10
 * and MRR, as over the pooled haystack.
 */
function sessionScores(ranking: Ranking): Record<string, number> {
  const top = new Set(rankSessions(ranking.ranked).slice(0, 5));
  const answers = [...ranking.answerSessions];
  return {
    ...turnScores(ranking),
    'any@5': answers.some((id) => top.has(id)) ? 1 : 0,
    'all@5': answers.length > 0 && answers.every((id) => top.has(id)) ? 1 : 0,
  };
}

export function score(rankings: readonly Ranking[], haystack: Haystack): Scores {
  const names = METRIC_NAMES[haystack];
  const sums: Record<string, number> = Object.fromEntries(names.map((name) => [name, 0]));
  for (const ranking of rankings) {
    const values = haystack === 'pooled' ? turnScores(ranking) : sessionScores(ranking);
    for (const name of names) sums[name] = (sums[name] ?? 0) + (values[name] ?? 0);
  }
  const n = Math.max(rankings.length, 1);
  return {
    questions: rankings.length,
    values: Object.fromEntries(names.map((name) => [name, (sums[name] ?? 0) / n])),
  };
}

/** The scores overall and per question type (types in name order). */
export function scoreByType(
  rankings: readonly Ranking[],
  haystack: Haystack,
): { overall: Scores; byType: Record<string, Scores> } {
  const types = [...new Set(rankings.map((r) => r.type))].sort();
  return {
    overall: score(rankings, haystack),
    byType: Object.fromEntries(
      types.map((type) => [
        type,
        score(
          rankings.filter((r) => r.type === type),
          haystack,
        ),
      ]),
    ),
  };
}

/** value / baseline per metric; null where the baseline is 0 (a ratio to nothing says nothing). */
export function ratios(scores: Scores, baseline: Scores): Record<string, number | null> {
  return Object.fromEntries(
    Object.entries(scores.values).map(([name, value]) => {
      const base = baseline.values[name] ?? 0;
      return [name, base > 0 ? value / base : null];
    }),
  );
}
