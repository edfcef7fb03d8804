import { randomUUID } from 'node:crypto';
import { CliError, ExitCode } from '../cli-error';
import { type DatabaseSync } from './sqlite';
import { inTransaction } from './store-database';
import { type QueuedWrite, type QueueStatus, type WriteOperation } from './write-operations';

/** Writes held per identity before new ones are refused (pending, conflicting and rejected alike). */
export const DEFAULT_QUEUE_MAX = 500;

/** CAIRN_QUEUE_MAX: how many writes the queue holds before refusing new ones (default 500). */
export function queueMaxOf(raw: string | undefined): number {
  if (raw === undefined || raw.trim() === '') return DEFAULT_QUEUE_MAX;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1 || value > 100_000) {
    throw new CliError(
      `CAIRN_QUEUE_MAX must be a whole number from 1 to 100000, not ${raw.slice(0, 40)}`,
      ExitCode.usage,
    );
  }
  return value;
}

/** The queue is at its cap: the write was not queued and the caller must say so. */
export class QueueFullError extends Error {
  readonly code = 'offline_queue_full';
  constructor(readonly max: number) {
    super(
      `the offline write queue holds ${max} writes, its cap: this write was NOT queued. ` +
        'Reconnect and run `cairn sync`, or review `cairn queue` and drop what is not needed.',
    );
    this.name = 'QueueFullError';
  }
}

interface QueueRow {
  seq: number;
  project: string;
  operation: string;
  payload: string;
  idempotency_key: string;
  status: QueueStatus;
  attempts: number;
  reason: string | null;
  detail: string | null;
  created_at: number;
  updated_at: number;
}

/** The identity's writes made while the server was away, in the order they were made. */
export class WriteQueueRepository {
  constructor(
    private readonly db: DatabaseSync,
    private readonly identityId: number,
  ) {}

  /**
   * Appends a write, or throws QueueFullError when `max` writes are already held: the cap is
   * checked and the row inserted in one transaction, so two processes cannot both pass it.
   */
  enqueue(
    project: string,
    operation: WriteOperation,
    options: { idempotencyKey?: string; max?: number; now?: number } = {},
  ): QueuedWrite {
    const max = options.max ?? DEFAULT_QUEUE_MAX;
    const now = options.now ?? Date.now();
    return inTransaction(this.db, () => {
      if (this.size() >= max) throw new QueueFullError(max);
      const row = this.db
        .prepare(
          `INSERT INTO write_queue
             (identity_id, project, operation, payload, idempotency_key, status, created_at, updated_at)
           VALUES (?, ?, ?, ?, ?, 'pending', ?, ?) RETURNING *`,
        )
        .get(
          this.identityId,
          project,
          operation.kind,
          JSON.stringify(operation),
          options.idempotencyKey ?? `cairn-offline-${randomUUID()}`,
          now,
          now,
        ) as unknown as QueueRow;
      return toWrite(row);
    });
  }

  /** Every write held, oldest first; only those of one status when given. */
  list(status?: QueueStatus): QueuedWrite[] {
    const rows = (status
      ? this.db
          .prepare('SELECT * FROM write_queue WHERE identity_id = ? AND status = ? ORDER BY seq')
          .all(this.identityId, status)
      : this.db
          .prepare('SELECT * FROM write_queue WHERE identity_id = ? ORDER BY seq')
          .all(this.identityId)) as unknown as QueueRow[];
    return rows.map(toWrite);
  }

  get(seq: number): QueuedWrite | undefined {
    const row = this.db
      .prepare('SELECT * FROM write_queue WHERE identity_id = ? AND seq = ?')
      .get(this.identityId, seq) as unknown as QueueRow | undefined;
    return row && toWrite(row);
  }

  /** The oldest pending write, the next to replay. */
  nextPending(): QueuedWrite | undefined {
    const row = this.db
      .prepare(`SELECT * FROM write_queue WHERE identity_id = ? AND status = 'pending' ORDER BY seq LIMIT 1`)
      .get(this.identityId) as unknown as QueueRow | undefined;
    return row && toWrite(row);
  }

  size(): number {
    const row = this.db.prepare('SELECT count(*) AS n FROM write_queue WHERE identity_id = ?').get(this.identityId) as {
      n: number;
    };
    return Number(row.n);
  }

  counts(): Record<QueueStatus, number> {
    const rows = this.db
      .prepare('SELECT status, count(*) AS n FROM write_queue WHERE identity_id = ? GROUP BY status')
      .all(this.identityId) as unknown as { status: QueueStatus; n: number }[];
    const counts: Record<QueueStatus, number> = { pending: 0, conflict: 0, rejected: 0 };
    for (const row of rows) counts[row.status] = Number(row.n);
    return counts;
  }

  /** The write reached the server (or its effect is already there): it leaves the queue. */
  complete(seq: number): void {
    this.db.prepare('DELETE FROM write_queue WHERE identity_id = ? AND seq = ?').run(this.identityId, seq);
  }

  /** Holds the write as a conflict or a rejection, with the server's reason; it is not retried. */
  hold(seq: number, status: 'conflict' | 'rejected', reason: string, detail: Record<string, unknown>): void {
    this.db
      .prepare(
        `UPDATE write_queue SET status = ?, reason = ?, detail = ?, attempts = attempts + 1, updated_at = ?
          WHERE identity_id = ? AND seq = ?`,
      )
      .run(status, reason, JSON.stringify(detail), Date.now(), this.identityId, seq);
  }

  /** An attempt that did not get through (server away, rate limited): stays pending, in place. */
  recordAttempt(seq: number, reason: string): void {
    this.db
      .prepare(
        'UPDATE write_queue SET attempts = attempts + 1, reason = ?, updated_at = ? WHERE identity_id = ? AND seq = ?',
      )
      .run(reason, Date.now(), this.identityId, seq);
  }

  /** Discards one held write (`cairn queue --drop`); false when this identity has none with that number. */
  drop(seq: number): boolean {
    const result = this.db
      .prepare('DELETE FROM write_queue WHERE identity_id = ? AND seq = ?')
      .run(this.identityId, seq);
    return Number(result.changes) > 0;
  }
}

function toWrite(row: QueueRow): QueuedWrite {
  return {
    seq: Number(row.seq),
    project: row.project,
    operation: JSON.parse(row.payload) as WriteOperation,
    idempotencyKey: row.idempotency_key,
    status: row.status,
    attempts: Number(row.attempts),
    reason: row.reason,
    detail: row.detail === null ? null : (JSON.parse(row.detail) as Record<string, unknown>),
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
  };
}
