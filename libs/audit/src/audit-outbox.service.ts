import { randomUUID } from 'node:crypto';
import { type BeforeApplicationShutdown, Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { TenantTransaction, type TenantRef } from '@cairn/tenancy';
import { AuditOutboxRepository } from './audit-outbox.repository';
import { isTenantGone, type TenantAuditEntry, TenantAuditLog } from './tenant-audit-log.repository';

/**
 * How long an outbox row waits for its own replica: that one moves it into the chain right after
 * answering (milliseconds later, or once Redis or the database is back); a row still there after
 * this is taken to be a dead replica's.
 */
export const OUTBOX_GRACE_SECONDS = 30;
const SWEEP_MS = 5_000;
const SCHEMAS_PER_SWEEP = 50;
const ROWS_PER_TENANT = 500;

/** One tool call's claim on the outbox (see AuditOutbox.reserve). */
export interface AuditReservation {
  /** For `TenantEntry.run`: writes the entry in the call's first transaction that changes anything. */
  readonly beforeCommit: () => Promise<void>;
  /** The outbox row's id once a transaction holding it has committed: the call's entry names it. */
  committedId(): string | undefined;
}

/**
 * The audit outbox of state-changing tool calls (issue 22): a call's entry is written in the
 * same transaction as its change, so a committed write has its entry even if the replica is
 * killed before it answers. Normally the call's entry, queued after the answer with the
 * outcome, replaces the row (TenantAuditLog.appendMany); every api and gateway replica also
 * sweeps the rows a dead replica left, writing each as the entry of an unanswered call.
 */
@Injectable()
export class AuditOutbox implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('AuditOutbox');
  private timer: NodeJS.Timeout | undefined;
  private sweeping: Promise<void> | undefined;

  constructor(
    private readonly outbox: AuditOutboxRepository,
    private readonly log: TenantAuditLog,
    private readonly tx: TenantTransaction,
  ) {}

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => void this.sweep(), SWEEP_MS).unref();
  }

  async beforeApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    await this.sweeping;
  }

  /** `entry` as the chain should record the call should its replica never answer. */
  reserve(tenant: TenantRef, entry: TenantAuditEntry): AuditReservation {
    const id = randomUUID();
    let committed = false;
    const stamped = { ...entry, at: entry.at ?? new Date() };
    return {
      beforeCommit: async () => {
        if (committed || !(await this.outbox.reserve(id, tenant, stamped))) return;
        // A transaction that rolls back after this leaves nothing: a later one writes the row again.
        this.tx.onCommit(() => {
          committed = true;
          return Promise.resolve();
        });
      },
      committedId: () => (committed ? id : undefined),
    };
  }

  /** Writes what dead replicas left in the outbox to the chains; never rejects. Single-flight. */
  sweep(): Promise<void> {
    this.sweeping ??= this.sweepOnce().finally(() => (this.sweeping = undefined));
    return this.sweeping;
  }

  private async sweepOnce(): Promise<void> {
    try {
      for (const schema of await this.outbox.schemasLeftBehind(OUTBOX_GRACE_SECONDS, SCHEMAS_PER_SWEEP)) {
        try {
          const written = await this.log.recoverOutbox(schema, OUTBOX_GRACE_SECONDS, ROWS_PER_TENANT);
          this.logger.warn({ msg: 'audit entries of unanswered tool calls written from the outbox', schema, written });
        } catch (error) {
          if (!isTenantGone(error)) throw error;
          await this.outbox.discard(schema);
        }
      }
    } catch (error) {
      // The database is away (or the chain's lock busy): the next sweep tries again.
      this.logger.warn({ msg: 'audit outbox sweep failed; will retry', err: error });
    }
  }
}
