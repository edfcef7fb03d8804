/**
 * Where the time goes, after the measurements of one size: EXPLAIN ANALYZE of the slowest
 * keyword and semantic query's ranker statement, and the cost of recording access on a
 * recall's results (the UPDATE every recall ends with).
 */
import { SYSTEM_VIEWER } from '@cairn/memory';
import { summarize, type LatencySummary } from '../lib/stats';
import { type AccessRecording, accessRecording, type ExplainedQuery, explainRanker, planSummary } from './explain';
import { type SearchApp, type SearchTenant } from './fixture';
import { type CairnOperations } from './operations';
import { type ModeResult } from './phases';
import { type IdSource } from './seed';

export interface Diagnosis {
  readonly explained: ExplainedQuery[];
  readonly access: AccessRecording & { readonly latencyMs: LatencySummary };
}

/** How many of the slowest keyword queries' result lists the access-recording probe replays. */
const ACCESS_PROBES = 10;

export async function diagnose(
  bench: SearchApp,
  target: SearchTenant,
  ops: CairnOperations,
  modes: readonly ModeResult[],
  queries: readonly string[],
  ids: IdSource,
  log: (line: string) => void,
): Promise<Diagnosis> {
  const explained: ExplainedQuery[] = [];
  for (const mode of modes) {
    if (mode.mode === 'hybrid') continue;
    const slowest = mode.slowest[0];
    if (!slowest) continue;
    const text = queries[slowest.query] ?? '';
    const plan = await explainRanker(bench, target, mode.mode, text, SYSTEM_VIEWER);
    explained.push(plan);
    log(
      `  slowest ${mode.mode} recall ${slowest.ms.toFixed(1)} ms for "${text}": ranker statement ` +
        `${plan.executionMs.toFixed(1)} ms (planning ${plan.planningMs.toFixed(1)} ms), ` +
        `${plan.usesIndex ? 'uses' : 'does NOT use'} its index`,
    );
    for (const line of planSummary(plan)) log(`    ${line}`);
  }

  const keyword = modes.find((mode) => mode.mode === 'keyword');
  const lists: string[][] = [];
  for (const { query } of (keyword?.slowest ?? []).slice(0, ACCESS_PROBES)) {
    const found = await ops.rankOnly('keyword')(query);
    // at(-1) of an array is its last element; -1 here means "not a corpus memory".
    lists.push(found.flatMap((index) => (index < 0 ? [] : (ids.at(index) ?? []))));
  }
  const access = await accessRecording(bench, target, lists);
  const latencyMs = summarize(access.samplesMs);
  log(
    `  recording access on 10 results: p50 ${latencyMs.p50.toFixed(1)} ms, max ${latencyMs.max.toFixed(1)} ms ` +
      `(rolled back); memories table so far: ${access.updates} row updates, ${access.hotUpdates} HOT`,
  );
  return { explained, access: { ...access, latencyMs } };
}
