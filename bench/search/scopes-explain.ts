/**
 * Diagnostics of the scope benchmark: EXPLAIN (ANALYZE, BUFFERS) of each ranker's statement
 * (explain.ts, the builders HybridSearch.rank uses) for a few questions on each side, so the
 * report can say which part of a recall the scope rules change, and how. The first question's
 * scans go to the log, every plan to the JSON.
 */
import { type Viewer } from '@cairn/memory';
import { explainRanker, type ExplainedQuery } from './explain';
import { type SearchApp, type SearchTenant } from './fixture';
import { VIEWER_PROJECT } from './scopes-plan';
import { type TeamTenant } from './scopes-seed';

export interface ExplainSide {
  readonly team: TeamTenant;
  readonly viewer: Viewer;
}

export async function explainSides<K extends string>(
  bench: SearchApp,
  sides: Record<K, ExplainSide>,
  texts: readonly string[],
  log: (line: string) => void,
): Promise<Record<'keyword' | 'semantic', Record<K, ExplainedQuery[]>>> {
  const target = (side: ExplainSide) =>
    ({ tenant: side.team.tenant, projectId: side.team.projects[VIEWER_PROJECT]?.id ?? '' }) as SearchTenant;
  const names = Object.keys(sides) as K[];
  const out = {} as Record<'keyword' | 'semantic', Record<K, ExplainedQuery[]>>;
  for (const ranker of ['keyword', 'semantic'] as const) {
    const plans = Object.fromEntries(names.map((name) => [name, [] as ExplainedQuery[]])) as Record<
      K,
      ExplainedQuery[]
    >;
    for (const text of texts) {
      for (const name of names) {
        plans[name].push(await explainRanker(bench, target(sides[name]), ranker, text, sides[name].viewer));
      }
    }
    const mean = (list: ExplainedQuery[]) => list.reduce((sum, e) => sum + e.executionMs, 0) / list.length;
    log(
      `  ${ranker} ranker, mean execution over ${texts.length} questions: ` +
        names.map((name) => `${name} ${mean(plans[name]).toFixed(1)} ms`).join(', '),
    );
    for (const name of names) {
      const first = plans[name][0];
      if (first) log(`    ${name}:\n      ${scanLines(first).join('\n      ')}`);
    }
    out[ranker] = plans;
  }
  return out;
}

/** The plan's scans of memories and of the share tables, their filters' removals and the total. */
function scanLines(explained: ExplainedQuery): string[] {
  return explained.plan
    .filter((line) => /Scan.* on (memories|memory_share)|SubPlan|Rows Removed by Filter|Execution Time/.test(line))
    .map((line) => line.replace(/\s+\(cost=[^)]*\)/, '').trimEnd())
    .slice(0, 16);
}
