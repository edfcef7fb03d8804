import { Injectable } from '@nestjs/common';
import { TenantTransaction } from '@cairn/tenancy';
import { TermStatisticsRepository } from './term-statistics.repository';

/** Folds a tenant's term-statistics deltas into their totals, a bounded transaction at a time. */
@Injectable()
export class TermStatistics {
  constructor(
    private readonly repository: TermStatisticsRepository,
    private readonly tx: TenantTransaction,
  ) {}

  /** In the current tenant's context: folds every delta there is, unless another fold is running. */
  async fold(): Promise<{ deltas: number; terms: number; busy: boolean }> {
    let deltas = 0;
    let terms = 0;
    for (;;) {
      const batch = await this.tx.run(() => this.repository.foldBatch());
      if (!batch) return { deltas, terms, busy: true };
      deltas += batch.moved;
      terms += batch.folded;
      if (!batch.more) return { deltas, terms, busy: false };
    }
  }
}
