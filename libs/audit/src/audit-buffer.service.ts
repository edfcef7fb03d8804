import { type BeforeApplicationShutdown, Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { AuditQueue, type QueuedAuditEntry, type StampedAuditEntry } from './audit-queue.service';
import { isTenantGone, type TenantAuditEntry, TenantAuditLog } from './tenant-audit-log.repository';

/** How soon after an entry is queued the drain runs: batches of tool calls, one chain append each. */
const FLUSH_INTERVAL_MS = 50;
/** After a failed write, or while another replica holds the drain lock. */
const RETRY_MS = 1_000;
/** Every replica looks for entries left behind (a replica killed after queueing) this often. */
const SWEEP_MS = 5_000;
const PAGE = 500;
/** Pages per pass: a busy queue is drained in several passes, so the lock is never held long. */
const PAGES_PER_PASS = 20;
const LOCK_TTL_MS = 10_000;

/**
 * Audit entries for high-rate actions (every MCP tool call). `append` resolves once the entry
 * is durable (in the Redis audit queue, or, with Redis down, written to the chain directly),
 * or says it is not, so a caller that awaits it before answering never answers a call whose
 * audit a crash could lose. The queue is drained into each tenant's chained audit log in queue order, in batches
 * (one locked append per tenant per batch), by one drain at a time in this process
 * (single-flight) and one replica at a time (the drain lock); a tenant's failed batch stays
 * queued for the next pass, and entries of a tenant deleted meanwhile are discarded.
 */
@Injectable()
export class AuditBuffer implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('AuditBuffer');
  private timer: NodeJS.Timeout | undefined;
  private sweep: NodeJS.Timeout | undefined;
  /** The drain under way, and the one that follows it for callers that came meanwhile. */
  private running: Promise<void> | undefined;
  private following: Promise<void> | undefined;
  /** Entries neither Redis nor the database took (both down): kept in order and retried, never dropped. */
  private stranded: { schema: string; entry: StampedAuditEntry }[] = [];
  private stopping = false;

  constructor(
    private readonly log: TenantAuditLog,
    private readonly queue: AuditQueue,
  ) {}

  onApplicationBootstrap(): void {
    this.schedule(FLUSH_INTERVAL_MS);
    this.sweep = setInterval(() => void this.flush(), SWEEP_MS).unref();
  }

  /**
   * True once the entry is durable. False when neither Redis nor the database took it: the
   * entry is then kept in memory and retried, but a crash would lose it, so the caller must
   * not answer as if the call had been recorded (as Vault withholds answers it cannot audit).
   * Never rejects.
   */
  async append(schema: string, entry: TenantAuditEntry): Promise<boolean> {
    const stamped: StampedAuditEntry = { ...entry, at: entry.at ?? new Date() };
    if (this.queue.ready()) {
      try {
        await this.queue.add(schema, stamped);
        this.schedule(FLUSH_INTERVAL_MS);
        return true;
      } catch (error) {
        this.logger.warn({ msg: 'audit queue unreachable; writing the entry to the chain directly', err: error });
      }
    }
    if (await this.writeDirectly(schema, stamped)) return true;
    this.stranded.push({ schema, entry: stamped });
    this.schedule(RETRY_MS);
    return false;
  }

  /**
   * Drains the queue into the chains; resolves once everything queued before the call is
   * written (or failed and left queued for the next try, or being drained by the replica that
   * holds the lock). Single-flight: a call during a drain waits for it and then for one more
   * drain, shared by every caller meanwhile, since the running one may have read past them.
   */
  flush(): Promise<void> {
    if (!this.running) {
      this.running = this.drain().finally(() => (this.running = undefined));
      return this.running;
    }
    this.following ??= this.running.then(() => {
      this.following = undefined;
      return this.flush();
    });
    return this.following;
  }

  /** Before the pool closes (TypeORM closes it on application shutdown). */
  async beforeApplicationShutdown(): Promise<void> {
    this.stopping = true;
    clearTimeout(this.timer);
    clearInterval(this.sweep);
    await this.flush();
  }

  private schedule(delayMs: number): void {
    if (this.stopping) return;
    this.timer ??= setTimeout(() => {
      this.timer = undefined;
      void this.flush();
    }, delayMs).unref();
  }

  /** Never rejects: what could not be written stays queued (or stranded) and a retry is scheduled. */
  private async drain(): Promise<void> {
    try {
      await this.requeueStranded();
      if (this.stranded.length > 0) this.schedule(RETRY_MS);
      if (!this.queue.ready()) {
        // Nothing new is queued meanwhile (appends write directly); what is queued waits for Redis.
        this.schedule(RETRY_MS);
        return;
      }
      const release = await this.queue.lock(LOCK_TTL_MS);
      if (!release) {
        // The holder drains what it reads; what it read past is picked up then.
        this.schedule(RETRY_MS);
        return;
      }
      try {
        await this.drainPass();
      } finally {
        await release().catch(() => undefined);
      }
    } catch (error) {
      this.logger.error({ msg: 'audit queue drain failed; will retry', err: error });
      this.schedule(RETRY_MS);
    }
  }

  private async drainPass(): Promise<void> {
    // A tenant whose append failed keeps its later entries queued too, so its chain stays in order.
    const failed = new Set<string>();
    let after: string | undefined;
    for (let pages = 0; pages < PAGES_PER_PASS; pages += 1) {
      const page = await this.queue.read(after, PAGE);
      if (page.length > 0) {
        after = page[page.length - 1]?.id;
        await this.queue.remove(await this.writePage(page, failed));
      }
      if (page.length < PAGE) {
        if (failed.size > 0) this.schedule(RETRY_MS);
        return;
      }
    }
    // More than a pass's worth: the rest in another pass, under a fresh lock.
    this.schedule(failed.size > 0 ? RETRY_MS : FLUSH_INTERVAL_MS);
  }

  /** One append per tenant, in queue order; returns the ids that may leave the queue. */
  private async writePage(page: readonly QueuedAuditEntry[], failed: Set<string>): Promise<string[]> {
    const done: string[] = [];
    const bySchema = new Map<string, QueuedAuditEntry[]>();
    for (const item of page) {
      if (!item.entry) {
        this.logger.error({ msg: 'unreadable audit queue entry discarded', id: item.id, schema: item.schema });
        done.push(item.id);
      } else if (!failed.has(item.schema)) {
        bySchema.set(item.schema, [...(bySchema.get(item.schema) ?? []), item]);
      }
    }
    for (const [schema, items] of bySchema) {
      try {
        await this.log.appendMany(
          schema,
          items.map((item) => ({ ...(item.entry as StampedAuditEntry), queueId: item.id })),
        );
      } catch (error) {
        if (!isTenantGone(error)) {
          this.logger.error({ msg: 'audit batch write failed; will retry', schema, rows: items.length, err: error });
          failed.add(schema);
          continue;
        }
        this.logger.warn({ msg: 'audit rows for a deleted tenant discarded', schema, rows: items.length });
      }
      done.push(...items.map((item) => item.id));
    }
    return done;
  }

  /** Stranded entries go to the queue (or the chain) again, oldest first, until one fails. */
  private async requeueStranded(): Promise<void> {
    while (this.stranded.length > 0) {
      const { schema, entry } = this.stranded[0];
      const queued =
        this.queue.ready() &&
        (await this.queue.add(schema, entry).then(
          () => true,
          () => false,
        ));
      if (!queued && !(await this.writeDirectly(schema, entry))) return;
      this.stranded.shift();
    }
  }

  /** True once written (or discarded with its deleted tenant). */
  private async writeDirectly(schema: string, entry: StampedAuditEntry): Promise<boolean> {
    try {
      await this.log.appendMany(schema, [entry]);
      return true;
    } catch (error) {
      if (isTenantGone(error)) return true;
      this.logger.error({ msg: 'audit entry could not be written; kept in memory and retried', schema, err: error });
      return false;
    }
  }
}
