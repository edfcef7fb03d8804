import { Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import { TenantEntry, type TenantRef } from '@cairn/tenancy';
import { MemoriesRepository } from './memories.repository';

const FLUSH_INTERVAL_MS = 1_000;

/**
 * Counts recalls per memory and writes them once a second in one UPDATE per tenant. Writing
 * on every recall made the read path pay for a row update of each result (with new HNSW and
 * GIN entries when the page was full): most of a recall's cost at 100k memories. A crash
 * loses at most a second of access counts, which only feed decay and the confidence boost.
 */
@Injectable()
export class AccessRecorder implements OnApplicationShutdown {
  private readonly logger = new Logger('AccessRecorder');
  private pending = new Map<string, { tenant: TenantRef; counts: Map<string, number> }>();
  private readonly timer: NodeJS.Timeout;
  private flushing: Promise<void> = Promise.resolve();

  constructor(
    private readonly entry: TenantEntry,
    private readonly memories: MemoriesRepository,
  ) {
    this.timer = setInterval(() => void this.flush(), FLUSH_INTERVAL_MS);
    this.timer.unref();
  }

  record(tenant: TenantRef, ids: readonly string[]): void {
    if (ids.length === 0) return;
    const entry = this.pending.get(tenant.id) ?? { tenant, counts: new Map<string, number>() };
    for (const id of ids) entry.counts.set(id, (entry.counts.get(id) ?? 0) + 1);
    this.pending.set(tenant.id, entry);
  }

  /** Writes what has been counted so far; concurrent calls queue behind each other. */
  flush(): Promise<void> {
    this.flushing = this.flushing.then(() => this.writePending());
    return this.flushing;
  }

  async onApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    await this.flush();
  }

  private async writePending(): Promise<void> {
    const batch = this.pending;
    this.pending = new Map();
    for (const { tenant, counts } of batch.values()) {
      try {
        await this.entry.transaction(tenant, () => this.memories.applyAccess(counts));
      } catch (error) {
        // A deleted tenant or a passing outage: access counts are statistics, not data.
        this.logger.warn({ msg: 'could not record memory access', tenantId: tenant.id, err: error });
      }
    }
  }
}
