import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { EMBEDDER, type Embedder } from '@cairn/embeddings';
import { type RelevanceCalibration, relevanceCalibration } from '@cairn/search';
import { selectForInjection } from '@cairn/cli-recall-selection';
import { type BenchApp } from '../lib/app';
import { observeRelevance } from './relevance-eval';
import {
  bestThreshold,
  curve,
  type CurvePoint,
  type HeldOutFold,
  leaveOneProjectOut,
  type Policy,
  type SelectionScore,
} from './relevance-metrics';
import { loadRelevanceSet, RELEVANCE_SET_FILE } from './relevance-set';

/** What the hook injects at most, and what `minRelevance` alone leaves of a page of that size. */
const PAGE = 5;

/**
 * The two ways a threshold is used: `minRelevance` alone (the server's filter, any client), and
 * the UserPromptSubmit hook (that filter, then only memories within RELATIVE_CUTOFF of the best).
 */
const POLICIES: Readonly<Record<'threshold' | 'hook', Policy>> = {
  threshold: (threshold) => (hits) => hits.filter((hit) => hit.relevance >= threshold).slice(0, PAGE),
  hook: (threshold) => (hits) => selectForInjection(hits.filter((hit) => hit.relevance >= threshold)),
};

export interface PolicyReport {
  /** Threshold 0: the top results whatever they are, as recall answered before it had a threshold. */
  readonly withoutThreshold: SelectionScore;
  readonly atDefault: SelectionScore;
  /** The curve around the default threshold. */
  readonly around: CurvePoint[];
  /** The threshold of best F0.5 on the whole set (the default is chosen near it, rounded). */
  readonly best: CurvePoint;
  readonly heldOut: { readonly folds: HeldOutFold[]; readonly pooled: SelectionScore };
}

export interface RelevanceEvalResult {
  readonly embedder: string;
  readonly calibration: RelevanceCalibration;
  readonly set: {
    readonly file: string;
    readonly projects: number;
    readonly memories: number;
    readonly prompts: number;
  };
  readonly policies: Readonly<Record<keyof typeof POLICIES, PolicyReport>>;
}

/**
 * `npm run eval -- --relevance [--provider hash|local] [--dump FILE]`: recall's calibrated
 * relevance on the labelled set (bench/hooks/relevance-set.json): precision and recall at the
 * active model's default threshold, the curve around it, the best threshold on the whole set,
 * and the thresholds chosen with one project left out each time, scored on that project.
 */
export async function runRelevanceEval(
  bench: BenchApp,
  root: string,
  options: { dump?: string; log: (line: string) => void },
): Promise<RelevanceEvalResult> {
  const set = loadRelevanceSet(join(root, RELEVANCE_SET_FILE));
  const run = await observeRelevance(bench, set, options.log);
  if (options.dump) {
    const lines = run.observations.map((o) => JSON.stringify({ ...o, relevant: [...o.relevant] }));
    writeFileSync(options.dump, `${lines.join('\n')}\n`);
    options.log(`observations written to ${options.dump}`);
  }
  const calibration = relevanceCalibration(bench.app.get<Embedder>(EMBEDDER).model);
  const report = (policy: Policy): PolicyReport => ({
    withoutThreshold: curve(run.observations, policy, [0])[0],
    atDefault: curve(run.observations, policy, [calibration.threshold])[0],
    around: curve(run.observations, policy, aroundThreshold(calibration.threshold)),
    best: bestThreshold(run.observations, policy),
    heldOut: leaveOneProjectOut(run.observations, policy),
  });
  return {
    embedder: run.embedder,
    calibration,
    set: {
      file: RELEVANCE_SET_FILE,
      projects: set.projects.length,
      memories: set.projects.reduce((sum, project) => sum + project.memories.length, 0),
      prompts: run.observations.length,
    },
    policies: { threshold: report(POLICIES.threshold), hook: report(POLICIES.hook) },
  };
}

/** The default threshold and ±0.05, ±0.1, ±0.15 around it, within 0–1. */
function aroundThreshold(threshold: number): number[] {
  const steps = [-0.15, -0.1, -0.05, 0, 0.05, 0.1, 0.15].map((step) => Math.round((threshold + step) * 100) / 100);
  return steps.filter((value) => value >= 0 && value <= 1);
}

const percent = (value: number) => `${(value * 100).toFixed(1)}%`.padStart(8);

function line(label: string, score: SelectionScore): string {
  return (
    label.padEnd(22) +
    [score.precision, score.recall, score.f05, score.silentOnUnrelated, score.servedRelated].map(percent).join('') +
    String(score.kept).padStart(7)
  );
}

/** The result as the evaluation prints it. */
export function formatRelevanceRun(result: RelevanceEvalResult): string {
  const { calibration, set } = result;
  const head =
    `Relevance threshold on ${set.file}: ${set.projects} projects, ${set.memories} memories, ${set.prompts} prompts ` +
    `(each general prompt asked in every project); embedder ${result.embedder}\n` +
    `calibration ${calibration.basis}: relevance = 1 - (1 - coverage)(1 - ${calibration.cosineWeight} x cosine), ` +
    `default threshold ${calibration.threshold}`;
  const columns =
    ''.padEnd(22) +
    ['precision', 'recall', 'F0.5', 'silent*', 'served†'].map((c) => c.padStart(8)).join('') +
    '   kept';
  const sections = (['threshold', 'hook'] as const).map((name) => {
    const policy = result.policies[name];
    const title =
      name === 'threshold'
        ? 'minRelevance alone (the server filter; at most 5 results)'
        : 'UserPromptSubmit hook (that filter, then within 75% of the best; at most 5)';
    const rows = policy.around.map((point) =>
      line(
        `  t = ${point.threshold.toFixed(2)}${point.threshold === calibration.threshold ? ' (default)' : ''}`,
        point,
      ),
    );
    const folds = policy.heldOut.folds.map((fold) => `${fold.heldOut} ${fold.threshold.toFixed(2)}`).join(', ');
    return [
      title,
      columns,
      line('  no threshold', policy.withoutThreshold),
      ...rows,
      line(`  best t = ${policy.best.threshold.toFixed(2)}`, policy.best),
      line('  held out (LOPO)', policy.heldOut.pooled),
      `  thresholds chosen with each project left out: ${folds}`,
    ].join('\n');
  });
  return [
    head,
    ...sections,
    "* unrelated prompts (general ones and other projects') with nothing kept; † related prompts with a relevant memory kept\n",
  ].join('\n\n');
}
