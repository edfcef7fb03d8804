import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { NoSqlSnapshot, SNAPSHOT_EXAMPLE as EX, SqlSnapshot } from '@cairn/db';
import { schemaNameFor, TenantDb, type TenantMoveContext, type TenantRef } from '@cairn/tenancy';
import { type DataSource } from 'typeorm';
import { AUDIT_OUTBOX_SQL } from './audit-outbox.sql';
import { type StampedAuditEntry } from './audit-queue.service';

/**
 * The audit outbox rows (cairn.audit_outbox) outside the chain's append transaction: reserving
 * one in a tool call's tenant transaction, and finding the tenants whose rows were left behind.
 * Moving rows into the chain is TenantAuditLog's, under the chain's lock.
 */
@Injectable()
export class AuditOutboxRepository {
  constructor(
    private readonly db: TenantDb,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {}

  /** In the current tenant transaction: true when the row was written (the transaction changed something). */
  @SqlSnapshot({
    params: [
      EX.newId,
      { id: EX.tenantId, slug: EX.tenantSlug, schema: schemaNameFor(EX.tenantId) },
      {
        actor: `token:${EX.tokenId}`,
        action: 'memory_store',
        target: EX.memoryId,
        outcome: 'success',
        status: 200,
        requestId: 'example-request',
        at: EX.date,
      },
    ],
  })
  async reserve(id: string, tenant: TenantRef, entry: StampedAuditEntry): Promise<boolean> {
    const rows = await this.db.query(AUDIT_OUTBOX_SQL.reserve, [id, tenant.id, tenant.schema, JSON.stringify(entry)]);
    return rows.length > 0;
  }

  /** Tenant schemas with rows older than `graceSeconds`, oldest first. */
  @SqlSnapshot({ params: [60, 10] })
  async schemasLeftBehind(graceSeconds: number, limit: number): Promise<string[]> {
    const rows = await this.dataSource.query<{ tenant_schema: string }[]>(AUDIT_OUTBOX_SQL.schemasLeftBehind, [
      graceSeconds,
      limit,
    ]);
    return rows.map((row) => row.tenant_schema);
  }

  /** The rows of a tenant whose schema is gone: there is no chain left to write them to. */
  @SqlSnapshot({ params: [schemaNameFor(EX.newTenantId)] })
  async discard(schema: string): Promise<void> {
    await this.dataSource.query(AUDIT_OUTBOX_SQL.discard, [schema]);
  }

  /**
   * A tenant move (TenantMover, docs/scaling.md): the tenant's rows follow its schema to the new
   * cluster, where the answer path and the chain will look for them. Written there first, then
   * removed here, so a failure in between leaves a row twice (the chain's claim writes it once),
   * never nowhere. How many were carried.
   */
  @NoSqlSnapshot('runs on the two clusters of a move, through the runners TenantMover hands its steps')
  async carry(move: TenantMoveContext): Promise<number> {
    const [{ rows }] = (await move.source(AUDIT_OUTBOX_SQL.rowsOfSchema, [move.schema])) as {
      rows: { id: string }[];
    }[];
    if (rows.length === 0) return 0;
    await move.target(AUDIT_OUTBOX_SQL.insertRows, [JSON.stringify(rows)]);
    await move.source(AUDIT_OUTBOX_SQL.deleteIds, [rows.map((row) => row.id)]);
    return rows.length;
  }
}
