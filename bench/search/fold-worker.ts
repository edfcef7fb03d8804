/**
 * The worker's share of a benchmark's write phase: a BullMQ consumer of the bench app's
 * `maintenance` queue running the term-statistics folds that a tenant's writes queue
 * (`TermStatistics.noteWrite`, every FOLD_AFTER_WRITES stores), as `apps/worker` does in a
 * deployment. Without it a store-only phase piles up deltas no deployment keeps, and every
 * keyword ranking (the store's contradiction check among them) sums them: at 100k memories the
 * check took 14.9 ms a store over 300 stores after a fold and 33.1 ms over the next 300.
 */
import { createBullConnection } from '@cairn/jobs';
import { TermStatistics } from '@cairn/search';
import { type TenantRef } from '@cairn/tenancy';
import { Worker } from 'bullmq';
import { type SearchApp } from './fixture';

export interface FoldWorker {
  /** Folds run and the deltas they moved, so far. */
  readonly stats: { folds: number; deltas: number };
  close(): Promise<void>;
}

/** Consumes fold jobs for `tenants` (the benchmark's own; a job for another tenant fails loudly). */
export function startFoldWorker(bench: SearchApp, tenants: readonly TenantRef[]): FoldWorker {
  const byId = new Map(tenants.map((tenant) => [tenant.id, tenant]));
  const statistics = bench.app.get(TermStatistics, { strict: false });
  const stats = { folds: 0, deltas: 0 };
  const connection = createBullConnection(bench.config, 'consumer');
  const worker = new Worker(
    'maintenance',
    async (job) => {
      if (job.name !== 'term-statistics-fold') throw new Error(`the bench's fold worker got a ${job.name} job`);
      const tenant = byId.get((job.data as { tenantId: string }).tenantId);
      if (!tenant) throw new Error(`a fold job for a tenant this benchmark did not make`);
      const folded = await bench.entry.run(tenant, () => statistics.fold());
      stats.folds += 1;
      stats.deltas += folded.deltas;
    },
    { connection, prefix: bench.queuePrefix, concurrency: 1 },
  );
  worker.on('error', () => undefined);
  return {
    stats,
    close: async () => {
      await worker.close();
      connection.disconnect();
    },
  };
}

/** `work` (a write phase in `tenant`) with a fold worker beside it; logs what it folded. */
export async function withFoldWorker<T>(
  bench: SearchApp,
  tenant: TenantRef,
  log: (line: string) => void,
  work: () => Promise<T>,
): Promise<T> {
  const folder = startFoldWorker(bench, [tenant]);
  try {
    return await work();
  } finally {
    await folder.close();
    log(
      `  folds the stores queued, run beside them as the worker would: ${folder.stats.folds} (${folder.stats.deltas} deltas)`,
    );
  }
}
