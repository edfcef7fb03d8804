import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { SNAPSHOT_EXAMPLE as EX, SqlSnapshot } from '@cairn/db';
import { schemaNameFor, TenantDb, type TenantRef } from '@cairn/tenancy';
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
}
