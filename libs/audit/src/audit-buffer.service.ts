import { type BeforeApplicationShutdown, Injectable, Logger } from '@nestjs/common';
import { isTenantGone, type TenantAuditEntry, TenantAuditLog } from './tenant-audit-log.repository';

const FLUSH_INTERVAL_MS = 50;
const MAX_BATCH = 500;
/** Past this many unwritten rows (database down) new ones are counted and dropped, loudly. */
const MAX_PENDING = 50_000;

interface Pending {
  readonly schema: string;
  readonly entry: TenantAuditEntry;
}

/**
 * Audit rows for high-rate actions (every MCP tool call), appended to the tenant's chained
 * audit log in batches every 50 ms (one locked append per tenant per batch) instead of a
 * round trip per call, so auditing costs the caller nothing on its latency. Each entry keeps
 * the time it happened. Flushed on shutdown; a tenant's failed batch is retried with the
 * next one, and rows for a tenant deleted meanwhile are discarded.
 */
@Injectable()
export class AuditBuffer implements BeforeApplicationShutdown {
  private readonly logger = new Logger('AuditBuffer');
  private pending: Pending[] = [];
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<Pending[]> | undefined;
  private dropped = 0;

  constructor(private readonly log: TenantAuditLog) {}

  append(schema: string, entry: TenantAuditEntry): void {
    if (this.pending.length >= MAX_PENDING) {
      this.dropped += 1;
      if (this.dropped % 1_000 === 1)
        this.logger.error({ msg: 'audit buffer full; rows dropped', dropped: this.dropped });
      return;
    }
    this.pending.push({ schema, entry: { ...entry, at: entry.at ?? new Date() } });
    this.timer ??= setTimeout(() => void this.flush(), FLUSH_INTERVAL_MS).unref();
  }

  /** Writes everything pending; resolves once written (or failed and kept for the next try). */
  async flush(): Promise<void> {
    this.timer = undefined;
    if (this.flushing) await this.flushing;
    while (this.pending.length > 0) {
      const batch = this.pending.splice(0, MAX_BATCH);
      this.flushing = this.write(batch);
      const retry = await this.flushing.finally(() => (this.flushing = undefined));
      if (retry.length > 0) {
        this.pending.unshift(...retry);
        this.timer ??= setTimeout(() => void this.flush(), 1_000).unref();
        return;
      }
    }
  }

  /** Before the pool closes (TypeORM closes it on application shutdown). */
  async beforeApplicationShutdown(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    await this.flush();
  }

  /** One append per tenant; returns the rows to retry (those of tenants whose append failed). */
  private async write(batch: readonly Pending[]): Promise<Pending[]> {
    const bySchema = new Map<string, TenantAuditEntry[]>();
    for (const { schema, entry } of batch) bySchema.set(schema, [...(bySchema.get(schema) ?? []), entry]);
    const retry: Pending[] = [];
    for (const [schema, entries] of bySchema) {
      try {
        await this.log.appendMany(schema, entries);
      } catch (error) {
        if (isTenantGone(error)) {
          this.logger.warn({ msg: 'audit rows for a deleted tenant discarded', schema, rows: entries.length });
          continue;
        }
        this.logger.error({ msg: 'audit batch write failed; will retry', schema, rows: entries.length, err: error });
        retry.push(...entries.map((entry) => ({ schema, entry })));
      }
    }
    return retry;
  }
}
