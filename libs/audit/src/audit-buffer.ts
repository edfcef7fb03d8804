import { type BeforeApplicationShutdown, Injectable, Logger } from '@nestjs/common';
import { type PlatformAuditEntry, PlatformAuditRepository } from './platform-audit.repository';

const FLUSH_INTERVAL_MS = 50;
const MAX_BATCH = 500;
/** Past this many unwritten rows (database down) new ones are counted and dropped, loudly. */
const MAX_PENDING = 50_000;

/**
 * Audit rows for high-rate actions (every MCP tool call): written in batches of one INSERT
 * every 50 ms instead of a round trip per call, so auditing costs the caller nothing on its
 * latency. Flushed on shutdown; a failed batch is retried with the next one.
 */
@Injectable()
export class AuditBuffer implements BeforeApplicationShutdown {
  private readonly logger = new Logger('AuditBuffer');
  private pending: PlatformAuditEntry[] = [];
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> | undefined;
  private dropped = 0;

  constructor(private readonly audit: PlatformAuditRepository) {}

  append(entry: PlatformAuditEntry): void {
    if (this.pending.length >= MAX_PENDING) {
      this.dropped += 1;
      if (this.dropped % 1_000 === 1)
        this.logger.error({ msg: 'audit buffer full; rows dropped', dropped: this.dropped });
      return;
    }
    this.pending.push(entry);
    this.timer ??= setTimeout(() => void this.flush(), FLUSH_INTERVAL_MS).unref();
  }

  /** Writes everything pending; resolves once written (or failed and kept for the next try). */
  async flush(): Promise<void> {
    this.timer = undefined;
    if (this.flushing) await this.flushing;
    while (this.pending.length > 0) {
      const batch = this.pending.splice(0, MAX_BATCH);
      this.flushing = this.audit.appendMany(batch);
      try {
        await this.flushing;
      } catch (error) {
        this.pending.unshift(...batch);
        this.logger.error({ msg: 'audit batch write failed; will retry', rows: batch.length, err: error });
        this.timer ??= setTimeout(() => void this.flush(), 1_000).unref();
        return;
      } finally {
        this.flushing = undefined;
      }
    }
  }

  /** Before the pool closes (TypeORM closes it on application shutdown). */
  async beforeApplicationShutdown(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    await this.flush();
  }
}
