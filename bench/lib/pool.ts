import { type DataSource } from 'typeorm';

/** The counters pg's Pool exposes; TypeORM keeps the pool as `driver.master`. */
interface PoolCounters {
  readonly totalCount: number;
  readonly idleCount: number;
  readonly waitingCount: number;
}

function poolOf(dataSource: DataSource): PoolCounters | undefined {
  const master = (dataSource.driver as unknown as { master?: PoolCounters }).master;
  return master && typeof master.totalCount === 'number' ? master : undefined;
}

/** Size settings of the app's pool, for the report. */
export function poolMax(dataSource: DataSource): number | null {
  const options = dataSource.options as { extra?: { max?: number } };
  return options.extra?.max ?? null;
}

/**
 * Waits until no query is queued or running on the pool, so fire-and-forget work from one
 * phase (e.g. the token `touch` UPDATE) never runs into the next phase's measurement.
 */
export async function waitForIdlePool(dataSource: DataSource, timeoutMs = 5_000): Promise<void> {
  const pool = poolOf(dataSource);
  if (!pool) return;
  const deadline = performance.now() + timeoutMs;
  while (pool.waitingCount > 0 || pool.idleCount < pool.totalCount) {
    if (performance.now() > deadline) throw new Error('database pool did not become idle within 5 s');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
