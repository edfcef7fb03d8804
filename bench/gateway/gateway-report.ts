/**
 * What the gateway benchmark reports for each level of concurrency: the table rows (each
 * case against the in-process service, the echo ceiling and, with --gateway-compare, the
 * compared gateway) and the one log line per level.
 */
import { type LoadResult } from '../lib/load';
import { type ResultRow, row } from '../lib/report';
import { type CpuMeter, METERED } from './cpu-meter';

export type CaseName =
  'echo' | 'recallHttp' | 'recallService' | 'recallCompared' | 'storeHttp' | 'storeService' | 'storeCompared';

export interface Level {
  readonly concurrency: number;
  readonly results: Partial<Record<CaseName, LoadResult>>;
  /** CPU milliseconds per call of each case, by process (empty where /proc is missing). */
  readonly cpu: ReturnType<CpuMeter['perCall']>;
}

const PAIRS = [
  ['memory_recall', 'recallHttp', 'recallService', 'MemoryRecall.recall in-process', 'recallCompared'],
  ['memory_store', 'storeHttp', 'storeService', 'MemoryWriter.store in-process', 'storeCompared'],
] as const;

/** One log line per level: rates, and the CPU each call cost every process. */
export function levelSummary({ results, cpu }: Level): string {
  const parts = [`echo ${results.echo?.perSecond.toFixed(0)}/s`];
  for (const [tool, httpCase, serviceCase, , comparedCase] of PAIRS) {
    const http = results[httpCase];
    const service = results[serviceCase];
    if (!http || !service) continue;
    const other = results[comparedCase];
    parts.push(
      `${tool} ${http.perSecond.toFixed(0)}/s (in-process ${service.perSecond.toFixed(0)}/s` +
        (other ? `, compared gateway ${other.perSecond.toFixed(0)}/s)` : ')'),
    );
  }
  const cpuParts = Object.entries(cpu)
    .filter(([name]) => name !== 'echo')
    .map(
      ([name, each]) =>
        `${name} ${each.total.toFixed(2)} (${METERED.map((key) => `${key} ${each[key].toFixed(2)}`).join(', ')})`,
    );
  return parts.join(', ') + (cpuParts.length > 0 ? `; CPU ms per call: ${cpuParts.join('; ')}` : '');
}

export function levelRows(level: Level): ResultRow[] {
  const { concurrency: c, results: r, cpu } = level;
  const bench = `gateway c=${c}`;
  const rows: ResultRow[] = [];
  for (const [tool, httpCase, serviceCase, serviceName, comparedCase] of PAIRS) {
    const http = r[httpCase];
    const service = r[serviceCase];
    if (!http || !service || !r.echo) continue;
    const other = r[comparedCase];
    if (other) {
      rows.push(
        row(bench, `${tool} over HTTP, compared gateway`, 'calls/s', other.perSecond, {
          name: serviceName,
          value: service.perSecond,
        }),
        row(bench, `${tool} over HTTP`, 'calls/s', http.perSecond, {
          name: 'compared gateway',
          value: other.perSecond,
        }),
      );
    }
    rows.push(
      row(bench, `${tool} over HTTP`, 'calls/s', http.perSecond, { name: serviceName, value: service.perSecond }),
      row(bench, `${tool} over HTTP`, 'calls/s', http.perSecond, {
        name: 'bare SDK echo server',
        value: r.echo.perSecond,
      }),
      row(bench, `${tool} p50`, 'ms', http.latencyMs.p50, { name: `${serviceName} p50`, value: service.latencyMs.p50 }),
      row(bench, `${tool} p95`, 'ms', http.latencyMs.p95, { name: `${serviceName} p95`, value: service.latencyMs.p95 }),
      row(bench, `${tool} p99`, 'ms', http.latencyMs.p99, { name: `${serviceName} p99`, value: service.latencyMs.p99 }),
      row(bench, `${tool} added per call p50`, 'ms', addedPerCall(http, service)),
    );
    const httpCpu = cpu[httpCase];
    const serviceCpu = cpu[serviceCase];
    if (httpCpu && serviceCpu) {
      rows.push(
        row(bench, `${tool} CPU per call, all processes`, 'ms', httpCpu.total, {
          name: `${serviceName} CPU per call`,
          value: serviceCpu.total,
        }),
      );
    }
  }
  if (!r.echo) return rows;
  rows.push(
    row(bench, 'echo over HTTP (bare SDK server)', 'calls/s', r.echo.perSecond),
    row(bench, 'echo p50', 'ms', r.echo.latencyMs.p50),
    row(bench, 'echo p99', 'ms', r.echo.latencyMs.p99),
  );
  return rows;
}

/** What the gateway adds to a call's median latency over the same call in-process (issue 27's part 6 goal: ≤ 1.5 ms at c=1). */
export function addedPerCall(http: LoadResult, service: LoadResult): number {
  return http.latencyMs.p50 - service.latencyMs.p50;
}

export const GATEWAY_GOALS = { addedP50Ms: 1.5, addedAtConcurrency: 1, recallPerSecond: 500, recallAtConcurrency: 16 };

/** Whether the part 6 goals held in this run, one line (levels not measured say so). */
export function goalsSummary(levels: readonly Level[]): string {
  const at = (c: number) => levels.find((level) => level.concurrency === c)?.results;
  const one = at(GATEWAY_GOALS.addedAtConcurrency);
  const many = at(GATEWAY_GOALS.recallAtConcurrency);
  const added = one?.recallHttp && one.recallService ? addedPerCall(one.recallHttp, one.recallService) : undefined;
  const rate = many?.recallHttp?.perSecond;
  const verdict = (held: boolean) => (held ? 'held' : 'NOT held');
  return (
    `gateway goals: memory_recall adds ≤ ${GATEWAY_GOALS.addedP50Ms} ms p50 over in-process at ` +
    `c=${GATEWAY_GOALS.addedAtConcurrency}: ` +
    (added === undefined ? 'not measured' : `${added.toFixed(2)} ms, ${verdict(added <= GATEWAY_GOALS.addedP50Ms)}`) +
    `; ≥ ${GATEWAY_GOALS.recallPerSecond} memory_recall calls/s per gateway at c=${GATEWAY_GOALS.recallAtConcurrency}: ` +
    (rate === undefined ? 'not measured' : `${rate.toFixed(0)}/s, ${verdict(rate >= GATEWAY_GOALS.recallPerSecond)}`)
  );
}
