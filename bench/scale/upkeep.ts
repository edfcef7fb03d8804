/**
 * What keeping a million-memory tenant healthy costs: the term-statistics fold the worker runs
 * every sweep interval (after the bulk load and after the store phase's writes), VACUUM
 * (ANALYZE) and ANALYZE of the memories table, the autovacuum settings in effect and what the
 * statistics collector says about dead tuples.
 */
import { TermStatistics } from '@cairn/search';
import { quotedSchema, type TenantRef } from '@cairn/tenancy';
import { type SearchApp } from '../search/fixture';

export interface TermTables {
  /** Folded totals: one row per (corpus, scope, lexeme). */
  readonly termCounts: number;
  /** Signed deltas appended by writers and not folded yet. */
  readonly termCountDeltas: number;
}

export interface TableActivity {
  readonly liveTuples: number;
  readonly deadTuples: number;
  readonly modifiedSinceAnalyze: number;
  readonly autovacuumCount: number;
  readonly autoanalyzeCount: number;
  readonly lastAutovacuum: string | null;
  readonly lastAutoanalyze: string | null;
}

export interface Fold {
  readonly seconds: number;
  readonly deltas: number;
  readonly before: TermTables;
  readonly after: TermTables;
}

export async function termTables(bench: SearchApp, schema: string): Promise<TermTables> {
  const s = quotedSchema(schema);
  const [row] = await bench.dataSource.query<{ counts: number; deltas: number }[]>(
    `SELECT (SELECT count(*) FROM ${s}.term_counts)::int AS counts, (SELECT count(*) FROM ${s}.term_count_deltas)::int AS deltas`,
  );
  return { termCounts: row?.counts ?? 0, termCountDeltas: row?.deltas ?? 0 };
}

/** TermStatistics.fold in the tenant, as the worker's sweep runs it, timed, with the term tables around it. */
export async function timedFold(bench: SearchApp, tenant: TenantRef): Promise<Fold> {
  const before = await termTables(bench, tenant.schema);
  const begin = performance.now();
  const folded = await bench.entry.run(tenant, () => bench.app.get(TermStatistics).fold());
  const seconds = (performance.now() - begin) / 1000;
  if (folded.busy) throw new Error('another term-statistics fold was running in the benchmark tenant');
  return { seconds, deltas: folded.deltas, before, after: await termTables(bench, tenant.schema) };
}

/** Seconds of `sql` on the pool (VACUUM cannot run in a transaction, so no tenant transaction). */
async function timed(bench: SearchApp, sql: string): Promise<number> {
  const begin = performance.now();
  await bench.dataSource.query(sql);
  return (performance.now() - begin) / 1000;
}

export async function vacuumAnalyze(bench: SearchApp, schema: string): Promise<number> {
  return timed(bench, `VACUUM (ANALYZE) ${quotedSchema(schema)}.memories`);
}

export async function analyze(bench: SearchApp, schema: string): Promise<number> {
  return timed(bench, `ANALYZE ${quotedSchema(schema)}.memories`);
}

/** The server's autovacuum settings and the memories table's own storage parameters, if any. */
export async function autovacuumSettings(bench: SearchApp, schema: string): Promise<Record<string, string>> {
  const settings = await bench.dataSource.query<{ name: string; setting: string }[]>(
    `SELECT name, current_setting(name) AS setting FROM pg_settings
      WHERE name LIKE 'autovacuum%' OR name IN ('maintenance_work_mem', 'max_parallel_maintenance_workers')
      ORDER BY name`,
  );
  const [table] = await bench.dataSource.query<{ options: string[] | null }[]>(
    `SELECT c.reloptions AS options FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = $1 AND c.relname = 'memories'`,
    [schema],
  );
  return {
    ...Object.fromEntries(settings.map((s) => [s.name, s.setting])),
    'memories reloptions': (table?.options ?? []).join(',') || '(none)',
  };
}

/**
 * pg_stat_user_tables for memories. Backends report their counts to the statistics system at
 * most once a second when idle, so this waits that long first.
 */
export async function tableActivity(bench: SearchApp, schema: string): Promise<TableActivity> {
  await new Promise((resolve) => setTimeout(resolve, 1_500));
  const [row] = await bench.dataSource.query<
    {
      live: string;
      dead: string;
      modified: string;
      vacuums: string;
      analyzes: string;
      last_vacuum: Date | null;
      last_analyze: Date | null;
    }[]
  >(
    `SELECT n_live_tup AS live, n_dead_tup AS dead, n_mod_since_analyze AS modified, autovacuum_count AS vacuums,
            autoanalyze_count AS analyzes, last_autovacuum AS last_vacuum, last_autoanalyze AS last_analyze
       FROM pg_stat_user_tables WHERE schemaname = $1 AND relname = 'memories'`,
    [schema],
  );
  return {
    liveTuples: Number(row?.live ?? 0),
    deadTuples: Number(row?.dead ?? 0),
    modifiedSinceAnalyze: Number(row?.modified ?? 0),
    autovacuumCount: Number(row?.vacuums ?? 0),
    autoanalyzeCount: Number(row?.analyzes ?? 0),
    lastAutovacuum: row?.last_vacuum ? new Date(row.last_vacuum).toISOString() : null,
    lastAutoanalyze: row?.last_analyze ? new Date(row.last_analyze).toISOString() : null,
  };
}
