/**
 * EXPLAIN (ANALYZE, BUFFERS) of the ranker statements for one query, exactly as HybridSearch
 * renders them (HybridSearch.statement over the memories corpus, with the sizes it derives for
 * limit 10), inside a tenant transaction with the same vectorSearchSettings. Diagnostics only:
 * what the measured numbers are made of.
 */
import { type Viewer } from '@cairn/memory';
import { DEFAULT_MATCH_BUDGET, queryEntities, type RankingPlan, vectorSearchSettings } from '@cairn/search';
import { type SearchApp, type SearchTenant } from './fixture';
import { LIMIT } from './operations';

/** As HybridSearch.rank derives them for `LIMIT`. */
const PER_LIST = Math.max(50, LIMIT * 4);

export interface ExplainedQuery {
  readonly ranker: 'keyword' | 'semantic';
  readonly query: string;
  readonly executionMs: number;
  readonly planningMs: number;
  /** Whether the plan scans the model's HNSW index (semantic) or the GIN index on tsv (keyword). */
  readonly usesIndex: boolean;
  readonly plan: string[];
}

export async function explainRanker(
  bench: SearchApp,
  target: SearchTenant,
  ranker: 'keyword' | 'semantic',
  query: string,
  /** Whose private memories the filter admits: `system` (all), or a reader's identity. */
  viewer: Viewer,
): Promise<ExplainedQuery> {
  const corpus = bench.memories.rankable({
    scope: { projectIds: [target.projectId], includeTenantWide: true, viewer },
  });
  let plan: RankingPlan;
  if (ranker === 'keyword') {
    plan = {
      keyword: {
        query,
        matchBudget: DEFAULT_MATCH_BUDGET,
        entities: queryEntities(query),
        limit: PER_LIST,
        maxTerms: 24,
      },
    };
  } else {
    const [vector] = await bench.embedder.embed([query]);
    plan = { semantic: { model: bench.embedder.model, vector: vector ?? [], limit: PER_LIST, exact: false } };
  }
  const statement = bench.search.statement(corpus, plan);
  const rows = await bench.entry.run(target.tenant, () =>
    bench.tx.run(
      () =>
        bench.db.query<{ 'QUERY PLAN': string }>(`EXPLAIN (ANALYZE, BUFFERS) ${statement.text}`, [...statement.values]),
      vectorSearchSettings(LIMIT),
    ),
  );
  const lines = rows.map((row) => row['QUERY PLAN']);
  const timing = (label: string) => Number(new RegExp(`${label}: ([\\d.]+) ms`).exec(lines.join('\n'))?.[1] ?? NaN);
  const index = ranker === 'keyword' ? /Bitmap Index Scan on memories_tsv/ : /Index Scan using memories_embedding_/;
  return {
    ranker,
    query,
    executionMs: timing('Execution Time'),
    planningMs: timing('Planning Time'),
    usesIndex: lines.some((line) => index.test(line)),
    plan: lines,
  };
}

/** The plan's nodes with their actual time and rows, one line each, for the log. */
export function planSummary(explained: ExplainedQuery): string[] {
  return explained.plan
    .filter((line) => /actual time/.test(line))
    .map((line) => line.replace(/\s+\(cost=[^)]*\)/, '').trimEnd())
    .slice(0, 24);
}

export interface AccessRecording {
  /** Time of MemoriesRepository.recordAccess for one recall's 10 results, in a rolled-back transaction. */
  readonly samplesMs: number[];
  /** Row updates on the memories table so far, and how many of them were HOT (no index entries). */
  readonly updates: number;
  readonly hotUpdates: number;
}

class RolledBack extends Error {}

/**
 * What recording access costs: the product's own MemoriesRepository.applyAccess (which the
 * AccessRecorder runs off the request path, once a second) on the given result lists, each
 * in a transaction that is then rolled back, plus the table's HOT-update counters.
 */
export async function accessRecording(
  bench: SearchApp,
  target: SearchTenant,
  resultLists: readonly string[][],
): Promise<AccessRecording> {
  const samplesMs: number[] = [];
  for (const ids of resultLists) {
    await bench.entry
      .run(target.tenant, () =>
        bench.tx.run(async () => {
          const begin = performance.now();
          await bench.memories.applyAccess(new Map(ids.map((id) => [id, 1])));
          samplesMs.push(performance.now() - begin);
          throw new RolledBack();
        }),
      )
      .catch((error: unknown) => {
        if (!(error instanceof RolledBack)) throw error;
      });
  }
  const [stats] = await bench.dataSource.query<{ upd: string; hot: string }[]>(
    `SELECT n_tup_upd AS upd, n_tup_hot_upd AS hot FROM pg_stat_user_tables WHERE schemaname = $1 AND relname = 'memories'`,
    [target.tenant.schema],
  );
  return { samplesMs, updates: Number(stats?.upd ?? 0), hotUpdates: Number(stats?.hot ?? 0) };
}
