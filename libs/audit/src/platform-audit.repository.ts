import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { SNAPSHOT_EXAMPLE as EX, SqlSnapshot } from '@cairn/db';
import { type DataSource } from 'typeorm';
import { type AuditFilter, auditFilterParams, auditFilterSql } from './audit-filter';

export type AuditOutcome = 'success' | 'denied' | 'failure';

export interface PlatformAuditEntry {
  readonly actor: string;
  readonly tenantId: string | null;
  readonly action: string;
  readonly target: string | null;
  readonly outcome: AuditOutcome;
  readonly status: number | null;
  readonly requestId: string | null;
  /** Small, non-secret facts (error code); never request bodies or tokens. */
  readonly details?: Record<string, unknown>;
}

export interface PlatformAuditRow extends PlatformAuditEntry {
  readonly id: string;
  readonly at: Date;
}

interface Row {
  id: string;
  at: Date;
  actor: string;
  tenant_id: string | null;
  action: string;
  target: string | null;
  outcome: AuditOutcome;
  status: number | null;
  request_id: string | null;
  details: Record<string, unknown> | null;
}

/** Append-only platform audit log in the control schema. */
@Injectable()
export class PlatformAuditRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  @SqlSnapshot({
    params: [
      {
        actor: 'admin',
        tenantId: EX.tenantId,
        action: 'tenant.create',
        target: EX.tenantSlug,
        outcome: 'success',
        status: 201,
        requestId: 'example-request',
        details: { code: 'created' },
      },
    ],
  })
  async append(entry: PlatformAuditEntry): Promise<void> {
    await this.dataSource.query(
      `INSERT INTO cairn.platform_audit (actor, tenant_id, action, target, outcome, status, request_id, details)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
      [
        entry.actor,
        entry.tenantId,
        entry.action,
        entry.target,
        entry.outcome,
        entry.status,
        entry.requestId,
        entry.details ?? null,
      ],
    );
  }

  /** Many rows in one statement (the MCP gateway's batched tool-call audit). */
  @SqlSnapshot({
    params: [
      [
        {
          actor: 'admin',
          tenantId: EX.tenantId,
          action: 'tenant.create',
          target: EX.tenantSlug,
          outcome: 'success',
          status: 201,
          requestId: 'example-request',
          details: { code: 'created' },
        },
      ],
    ],
  })
  async appendMany(entries: readonly PlatformAuditEntry[]): Promise<void> {
    if (entries.length === 0) return;
    await this.dataSource.query(
      `INSERT INTO cairn.platform_audit (actor, tenant_id, action, target, outcome, status, request_id, details)
       SELECT actor, tenant_id, action, target, outcome, status, request_id, details
       FROM jsonb_to_recordset($1::jsonb) AS e(actor text, tenant_id uuid, action text, target text, outcome text,
                                                status integer, request_id text, details jsonb)`,
      [
        JSON.stringify(
          entries.map((entry) => ({
            actor: entry.actor,
            tenant_id: entry.tenantId,
            action: entry.action,
            target: entry.target,
            outcome: entry.outcome,
            status: entry.status,
            request_id: entry.requestId,
            details: entry.details ?? null,
          })),
        ),
      ],
    );
  }

  /** Newest first; `beforeId` pages backwards; the other fields of the filter narrow it. */
  @SqlSnapshot({
    params: [{ tenantId: EX.tenantId, limit: 50, beforeId: '42', action: 'tenant.delete', from: EX.date }],
  })
  async list(filter: AuditFilter & { tenantId?: string }): Promise<PlatformAuditRow[]> {
    const rows = await this.dataSource.query<Row[]>(
      // Ordered by the column, not the text output of the same name ('9' sorts after '10').
      `SELECT a.id::text AS id, at, actor, tenant_id, action, target, outcome, status, request_id, details
       FROM cairn.platform_audit a
       WHERE ($1::uuid IS NULL OR tenant_id = $1::uuid) AND ($2::bigint IS NULL OR a.id < $2::bigint)
         AND ${auditFilterSql(4)}
       ORDER BY a.id DESC LIMIT $3`,
      [filter.tenantId ?? null, filter.beforeId ?? null, filter.limit, ...auditFilterParams(filter)],
    );
    return rows.map((row) => ({
      id: row.id,
      at: row.at,
      actor: row.actor,
      tenantId: row.tenant_id,
      action: row.action,
      target: row.target,
      outcome: row.outcome,
      status: row.status,
      requestId: row.request_id,
      details: row.details ?? undefined,
    }));
  }
}
