import { Injectable, Logger } from '@nestjs/common';
import { TenantContext, TenantTransaction } from '@cairn/tenancy';
import { TermStatisticsRepository } from './term-statistics.repository';

/** A fold that moved at least this many deltas vacuums the term tables right after (see vacuum). */
const VACUUM_AFTER = 10_000;

/** Folds a tenant's term-statistics deltas into their totals, a bounded transaction at a time. */
@Injectable()
export class TermStatistics {
  private readonly logger = new Logger('TermStatistics');

  constructor(
    private readonly repository: TermStatisticsRepository,
    private readonly tx: TenantTransaction,
    private readonly tenant: TenantContext,
  ) {}

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
