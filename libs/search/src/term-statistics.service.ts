import { Injectable, Logger } from '@nestjs/common';
import { JobQueue } from '@cairn/jobs';
import { TenantContext, TenantTransaction } from '@cairn/tenancy';
import { TermStatisticsRepository } from './term-statistics.repository';

/** A fold that moved at least this many deltas vacuums the term tables right after (see vacuum). */
const VACUUM_AFTER = 10_000;

/**
 * Writes of one tenant a process lets pass before it asks the worker for a fold, beside the
 * sweep's clock. Why: the rankers sum every delta of a query term not folded yet (one row per
 * written row and term), so their cost grows with the writes since the last fold. Measured at
 * 100k memories, one client storing without pause (the sweep folds every 5 minutes): the
 * contradiction check's keyword statement took 14.9 ms a store over the first 300 stores after a
 * fold and 33.1 ms over the next 300; ~25 deltas a store, a few hundred rows for a common term.
 */
export const FOLD_AFTER_WRITES = 100;

/** Folds a tenant's term-statistics deltas into their totals, a bounded transaction at a time. */
@Injectable()
export class TermStatistics {
  private readonly logger = new Logger('TermStatistics');
  /** Per tenant id, this process's writes since it last asked for a fold (entries leave at the threshold). */
  private readonly writesSinceFold = new Map<string, number>();

  constructor(
    private readonly repository: TermStatisticsRepository,
    private readonly tx: TenantTransaction,
    private readonly tenant: TenantContext,
    private readonly jobs: JobQueue,
  ) {}

  /**
   * After a committed write that added term deltas, in the writer's tenant context: every
   * FOLD_AFTER_WRITES of them, a `term-statistics-fold` job for the tenant (one id per tenant, so
   * a fold already pending absorbs the request; Redis refusing it only leaves the sweep's clock).
   */
  async noteWrite(): Promise<void> {
    const tenantId = this.tenant.require('TermStatistics.noteWrite').id;
    const writes = (this.writesSinceFold.get(tenantId) ?? 0) + 1;
    if (writes < FOLD_AFTER_WRITES) {
      this.writesSinceFold.set(tenantId, writes);
      return;
    }
    this.writesSinceFold.delete(tenantId);
    await this.jobs.enqueue('maintenance', 'term-statistics-fold', { tenantId }, { jobId: `term-fold-${tenantId}` });
  }

  /**
   * In the current tenant's context: folds every delta there is, unless another fold is running;
   * after a large fold (a bulk load), vacuums the term tables so rankings stop paying for it.
   */
  async fold(): Promise<{ deltas: number; terms: number; busy: boolean }> {
    let deltas = 0;
    let terms = 0;
    for (;;) {
      const batch = await this.tx.run(() => this.repository.foldBatch());
      if (!batch) return { deltas, terms, busy: true };
      deltas += batch.moved;
      terms += batch.folded;
      if (!batch.more) {
        if (deltas >= VACUUM_AFTER) await this.vacuum();
        return { deltas, terms, busy: false };
      }
    }
  }

  /** The fold is committed whatever happens here, and autovacuum gets there anyway: failures are only logged. */
  private async vacuum(): Promise<void> {
    const tenant = this.tenant.require('term-statistics vacuum');
    try {
      await this.repository.vacuum(tenant.schema);
    } catch (error) {
      this.logger.warn({ msg: 'term tables not vacuumed after a large fold', tenant: tenant.slug, err: error });
    }
  }
}
