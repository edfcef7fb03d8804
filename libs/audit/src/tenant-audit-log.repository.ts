import { Injectable } from '@nestjs/common';
import { SNAPSHOT_EXAMPLE as EX, SqlSnapshot } from '@cairn/db';
import { quotedSchema, schemaNameFor, TenantConnections } from '@cairn/tenancy';
import { type EntityManager } from 'typeorm';
import { type AuditFilter, auditFilterParams, auditFilterSql } from './audit-filter';
import { AUDIT_OUTBOX_SQL } from './audit-outbox.sql';
import { chainHash, type ChainedAuditFields, chainLinkProblem, GENESIS_HASH, storedDetails } from './audit-chain';
import { type AuditOutcome, type PlatformAuditEntry } from './platform-audit.repository';
import { tenantAuditAppendSql } from './tenant-audit-log.sql';

/** One event for a tenant's audit log (no tenant id: the schema says whose); `at` defaults to when it is written. */
export type TenantAuditEntry = Omit<PlatformAuditEntry, 'tenantId'> & {
  readonly at?: Date;
  /** The audit queue's id for the entry, when it came through the queue: written once whatever the redeliveries. */
  readonly queueId?: string;
  /**
   * The outbox row the call's transaction committed (AuditOutbox): the entry replaces it, or is
   * dropped when a sweep already wrote the row in its place. Not hashed: how the entry travelled.
   */
  readonly outboxId?: string;
};

export interface TenantAuditRow extends ChainedAuditFields {
  readonly id: string;
  readonly hash: string;
  readonly prevHash: string;
}

export interface ChainVerification {
  readonly valid: boolean;
  /** Entries checked (all of them when valid; up to the first bad one otherwise). */
  readonly entries: number;
  /** Where the chain starts when retention pruned older entries: the last pruned entry. */
  readonly prunedThrough: { readonly id: string; readonly hash: string; readonly entriesPruned: number } | null;
  /** Hash of the newest entry: record it elsewhere to detect a truncated tail later. */
  readonly head: string | null;
  readonly firstInvalidId: string | null;
  readonly reason: string | null;
}

/** An outbox row's entry as jsonb gives it back. */
type StoredOutboxEntry = Omit<TenantAuditEntry, 'at'> & { readonly at: string };

interface Row {
  id: string;
  at: Date;
  actor: string;
  action: string;
  target: string | null;
  outcome: AuditOutcome;
  status: number | null;
  request_id: string | null;
  details: Record<string, unknown> | null;
  prev_hash: Buffer;
  hash: Buffer;
}

/** Over alias `a`; queries order by `a.id`, never by the text output column also named id. */
const COLUMNS = 'a.id::text AS id, at, actor, action, target, outcome, status, request_id, details, prev_hash, hash';
const VERIFY_PAGE = 5_000;
/** Entries deleted per retention transaction (the append lock is held meanwhile). */
const PRUNE_BATCH = 10_000;
/** PostgreSQL: the schema or table is gone. */
const GONE_CODES = new Set(['3F000', '42P01']);

/** Whether an append failed because the tenant's schema no longer exists (the tenant was deleted). */
export function isTenantGone(error: unknown): boolean {
  const code = (error as { driverError?: { code?: string } } | null)?.driverError?.code;
  return code !== undefined && GONE_CODES.has(code);
}

/**
 * The hash-chained audit log in each tenant's schema. Appends take the table's
 * SHARE ROW EXCLUSIVE lock (appenders queue, readers do not wait), skip the queued entries
 * already written, read the newest hash and insert the batch chained onto it, so any number
 * of api and gateway replicas extend one chain and a redelivered entry is written once.
 * Schema-qualified on the pool of the tenant's cluster (TenantConnections, which also holds a
 * tenant move's freeze): no tenant transaction needed.
 */
@Injectable()
export class TenantAuditLog {
  constructor(private readonly connections: TenantConnections) {}

  @SqlSnapshot({
    name: 'one entry from the audit queue, one from the outbox',
    params: [
      schemaNameFor(EX.tenantId),
      [
        {
          ...{
            actor: `token:${EX.tokenId}`,
            action: 'memory_store',
            target: EX.memoryId,
            outcome: 'success',
            status: 200,
            requestId: 'example-request',
            at: EX.date,
          },
          queueId: '1767323045000-0',
        },
        {
          ...{
            actor: `token:${EX.tokenId}`,
            action: 'memory_store',
            target: EX.memoryId,
            outcome: 'success',
            status: 200,
            requestId: 'example-request',
            at: EX.date,
          },
          outboxId: EX.outboxId,
        },
      ],
    ],
  })
  async appendMany(schema: string, entries: readonly TenantAuditEntry[]): Promise<void> {
    if (entries.length === 0) return;
    const sql = tenantAuditAppendSql(schema);
    await this.connections.transactionOnSchema(schema, async (manager) => {
      await manager.query(sql.lock);
      const queueIds = entries.flatMap((entry) => (entry.queueId === undefined ? [] : [entry.queueId]));
      const present =
        queueIds.length === 0
          ? new Set<string>()
          : new Set(
              (await manager.query<{ queue_id: string }[]>(sql.alreadyQueued, [queueIds])).map((row) => row.queue_id),
            );
      const unwritten = entries.filter((entry) => entry.queueId === undefined || !present.has(entry.queueId));
      // An entry whose outbox row is gone was written by a sweep already (its replica looked dead).
      const outboxIds = unwritten.flatMap((entry) => (entry.outboxId === undefined ? [] : [entry.outboxId]));
      const claimed =
        outboxIds.length === 0
          ? new Set<string>()
          : new Set((await manager.query<{ id: string }[]>(AUDIT_OUTBOX_SQL.claim, [outboxIds])).map((row) => row.id));
      const fresh = unwritten.filter((entry) => entry.outboxId === undefined || claimed.has(entry.outboxId));
      await this.chain(manager, sql, fresh);
    });
  }

  /**
   * Writes the outbox rows of `schema` older than `graceSeconds` (their replica died between
   * its commit and its answer) to the chain, oldest first, in one transaction with their
   * removal; returns how many. Each says `unanswered: true`: the outcome is the commit's.
   */
  @SqlSnapshot({ params: [schemaNameFor(EX.tenantId), 0, 100] })
  async recoverOutbox(schema: string, graceSeconds: number, limit: number): Promise<number> {
    const sql = tenantAuditAppendSql(schema);
    return this.connections.transactionOnSchema(schema, async (manager) => {
      await manager.query(sql.lock);
      const rows = await manager.query<{ entry: StoredOutboxEntry }[]>(AUDIT_OUTBOX_SQL.sweep, [
        schema,
        graceSeconds,
        limit,
      ]);
      await this.chain(
        manager,
        sql,
        rows.map(({ entry }) => ({
          ...entry,
          at: new Date(entry.at),
          details: { ...entry.details, unanswered: true },
        })),
      );
      return rows.length;
    });
  }

  /** Inserts `entries` chained onto the newest hash; the caller holds the table lock. */
  private async chain(
    manager: EntityManager,
    sql: ReturnType<typeof tenantAuditAppendSql>,
    fresh: readonly TenantAuditEntry[],
  ): Promise<void> {
    if (fresh.length === 0) return;
    const [last] = await manager.query<{ hash: Buffer | null }[]>(sql.lastHash);
    let previous: Buffer = last?.hash ?? GENESIS_HASH;
    const now = new Date();
    const rows = fresh.map((entry) => {
      const fields: ChainedAuditFields = {
        // Milliseconds, as a JavaScript Date reads back what timestamptz stores.
        at: entry.at ?? now,
        actor: entry.actor,
        action: entry.action,
        target: entry.target,
        outcome: entry.outcome,
        status: entry.status,
        requestId: entry.requestId,
        details: storedDetails(entry.details),
      };
      const hash = chainHash(previous, fields);
      const row = {
        ...fields,
        at: fields.at.toISOString(),
        prev: previous.toString('hex'),
        hash: hash.toString('hex'),
        queueId: entry.queueId ?? null,
      };
      previous = hash;
      return row;
    });
    await manager.query(sql.insert, [JSON.stringify(rows)]);
  }

  /** Newest first; `beforeId` pages backwards; the other fields of the filter narrow it. */
  @SqlSnapshot({
    params: [schemaNameFor(EX.tenantId), { limit: 50, beforeId: '42', actor: 'platform-admin', outcome: 'denied' }],
  })
  async list(schema: string, filter: AuditFilter): Promise<TenantAuditRow[]> {
    const dataSource = await this.connections.dataSourceOfSchema(schema);
    const rows = await dataSource.query<Row[]>(
      `SELECT ${COLUMNS} FROM ${quotedSchema(schema)}.audit_log a
       WHERE ($1::bigint IS NULL OR a.id < $1::bigint) AND ${auditFilterSql(3)} ORDER BY a.id DESC LIMIT $2`,
      [filter.beforeId ?? null, filter.limit, ...auditFilterParams(filter)],
    );
    return rows.map(toAuditRow);
  }

  /** Walks the whole chain oldest first (from the retention checkpoint, if any), recomputing every hash. */
  @SqlSnapshot({ params: [schemaNameFor(EX.tenantId)] })
  async verify(schema: string): Promise<ChainVerification> {
    const dataSource = await this.connections.dataSourceOfSchema(schema);
    const [checkpoint] = await dataSource.query<{ through_id: string; hash: Buffer; entries_pruned: string }[]>(
      `SELECT through_id::text AS through_id, hash, entries_pruned FROM ${quotedSchema(schema)}.audit_log_checkpoint`,
    );
    const prunedThrough = checkpoint
      ? {
          id: checkpoint.through_id,
          hash: checkpoint.hash.toString('hex'),
          entriesPruned: Number(checkpoint.entries_pruned),
        }
      : null;
    let previous: Buffer = checkpoint?.hash ?? GENESIS_HASH;
    let entries = 0;
    let afterId = checkpoint?.through_id ?? '0';
    for (;;) {
      const rows = await dataSource.query<Row[]>(
        `SELECT ${COLUMNS} FROM ${quotedSchema(schema)}.audit_log a WHERE a.id > $1::bigint ORDER BY a.id LIMIT $2`,
        [afterId, VERIFY_PAGE],
      );
      for (const row of rows) {
        const entry = toAuditRow(row);
        const reason = chainLinkProblem(previous, { prevHash: row.prev_hash, hash: row.hash }, () =>
          chainHash(previous, entry),
        );
        if (reason) return { valid: false, entries, prunedThrough, head: null, firstInvalidId: row.id, reason };
        previous = row.hash;
        entries += 1;
      }
      const last = rows[rows.length - 1];
      if (!last || rows.length < VERIFY_PAGE) break;
      afterId = last.id;
    }
    const head = entries === 0 ? (prunedThrough?.hash ?? null) : previous.toString('hex');
    return { valid: true, entries, prunedThrough, head, firstInvalidId: null, reason: null };
  }

  /**
   * Deletes the entries older than `before`, oldest first (a prefix of the chain, so what
   * remains still verifies), recording the last deleted entry's id and hash as the point the
   * chain now starts from. Returns how many entries were deleted.
   */
  @SqlSnapshot({ params: [schemaNameFor(EX.tenantId), EX.future] })
  async prune(schema: string, before: Date): Promise<number> {
    const table = `${quotedSchema(schema)}.audit_log`;
    let pruned = 0;
    for (;;) {
      const deleted = await this.connections.transactionOnSchema(schema, async (manager) => {
        await manager.query(`LOCK TABLE ${table} IN SHARE ROW EXCLUSIVE MODE`);
        await manager.query(`SELECT set_config('cairn.audit_retention', 'on', true)`);
        // The newest of the oldest entries before the cutoff: everything up to it goes.
        const [last] = await manager.query<{ id: string; hash: Buffer }[]>(
          `SELECT a.id::text AS id, a.hash FROM ${table} a
           WHERE a.id = (SELECT max(id) FROM (SELECT id FROM ${table} WHERE at < $1 ORDER BY id LIMIT $2) oldest)`,
          [before, PRUNE_BATCH],
        );
        if (!last) return 0;
        const [{ n }] = await manager.query<{ n: number }[]>(
          `WITH gone AS (DELETE FROM ${table} WHERE id <= $1::bigint RETURNING 1) SELECT count(*)::int AS n FROM gone`,
          [last.id],
        );
        await manager.query(
          `INSERT INTO ${quotedSchema(schema)}.audit_log_checkpoint (through_id, hash, entries_pruned, pruned_at)
           VALUES ($1::bigint, $2, $3, now())
           ON CONFLICT (singleton) DO UPDATE SET through_id = EXCLUDED.through_id, hash = EXCLUDED.hash,
             entries_pruned = audit_log_checkpoint.entries_pruned + EXCLUDED.entries_pruned, pruned_at = now()`,
          [last.id, last.hash, n],
        );
        return n;
      });
      pruned += deleted;
      if (deleted < PRUNE_BATCH) return pruned;
    }
  }
}

function toAuditRow(row: Row): TenantAuditRow {
  return {
    id: row.id,
    at: row.at,
    actor: row.actor,
    action: row.action,
    target: row.target,
    outcome: row.outcome,
    status: row.status,
    requestId: row.request_id,
    details: row.details,
    hash: row.hash.toString('hex'),
    prevHash: row.prev_hash.toString('hex'),
  };
}
