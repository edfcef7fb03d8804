import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { RequirePermission } from '@cairn/access';
import { CurrentTenant, SlugParamDto, type TenantRef } from '@cairn/tenancy';
import { createZodDto, ZodResponse } from 'nestjs-zod';
import { z } from 'zod';
import { type AuditFilter } from '../audit-filter';
import { AuditLogService } from '../audit-log.service';
import { type PlatformAuditRow } from '../platform-audit.repository';
import { type TenantAuditRow } from '../tenant-audit-log.repository';

const auditQuerySchema = z
  .strictObject({
    limit: z.coerce.number().int().min(1).max(500).default(100),
    before: z
      .string()
      // Entry ids are PostgreSQL bigints; 19 digits could exceed the largest, 18 cannot.
      .regex(/^[1-9][0-9]{0,17}$/, 'must be an audit entry id')
      .optional(),
    actor: z
      .string()
      // Printable ASCII without spaces: `jwt:<issuer>/sub:<subject>` carries an outside server's
      // subject as it is (Auth0's `auth0|…`, URLs); the value is only ever a bound parameter.
      .regex(/^[\x21-\x7e]{1,500}$/, 'must be an actor as the log spells it, e.g. user:<id>')
      .optional()
      .describe('Entries of this actor (`platform-admin`, `token:<id>`, …); `user:<id>` matches all of its tokens'),
    action: z
      .string()
      .regex(/^[A-Za-z0-9_.:-]{1,100}$/, 'must be an action such as tenant.create')
      .optional()
      .describe('Entries of this action; ending with a dot (`mcp.`), of every action under it'),
    outcome: z.enum(['success', 'denied', 'failure']).optional(),
    from: z.iso.datetime({ offset: true }).optional().describe('Entries at or after this instant'),
    to: z.iso.datetime({ offset: true }).optional().describe('Entries before this instant'),
  })
  // `from` is inclusive and `to` exclusive: equal instants are an empty window, not an error.
  .refine((query) => !query.from || !query.to || Date.parse(query.from) <= Date.parse(query.to), {
    message: 'from must not be after to',
    path: ['to'],
  });
class AuditQueryDto extends createZodDto(auditQuerySchema) {}

/** The repository's filter of a validated query. */
function filterOf(query: AuditQueryDto): AuditFilter {
  return {
    limit: query.limit,
    beforeId: query.before,
    actor: query.actor,
    action: query.action,
    outcome: query.outcome,
    from: query.from ? new Date(query.from) : undefined,
    to: query.to ? new Date(query.to) : undefined,
  };
}

const auditEntrySchema = z.object({
  id: z.string(),
  at: z.iso.datetime(),
  actor: z.string(),
  tenantId: z.string().nullable(),
  action: z.string(),
  target: z.string().nullable(),
  outcome: z.enum(['success', 'denied', 'failure']),
  status: z.number().nullable(),
  requestId: z.string().nullable(),
  details: z.record(z.string(), z.unknown()).optional(),
});
const auditPageSchema = z.object({ items: z.array(auditEntrySchema), nextCursor: z.string().nullable() });
class AuditPageDto extends createZodDto(auditPageSchema) {}

const hashSchema = z.string().regex(/^[0-9a-f]{64}$/);
const tenantAuditPageSchema = z.object({
  items: z.array(
    auditEntrySchema.extend({
      details: z.record(z.string(), z.unknown()).nullable(),
      hash: hashSchema.describe("SHA-256 of the previous entry's hash and this entry's fields (RFC 8785 JSON)"),
      prevHash: hashSchema,
    }),
  ),
  nextCursor: z.string().nullable(),
});
class TenantAuditPageDto extends createZodDto(tenantAuditPageSchema) {}

const verificationSchema = z.object({
  valid: z.boolean(),
  entries: z.number().int().describe('Entries checked: all when valid, those before the first bad one otherwise'),
  prunedThrough: z
    .object({ id: z.string(), hash: hashSchema, entriesPruned: z.number().int() })
    .nullable()
    .describe(
      "Where the chain starts after retention pruned older entries (the tenant's audit retention; AUDIT_RETENTION_DAYS by default)",
    ),
  head: hashSchema.nullable().describe('Hash of the newest entry; kept elsewhere, it also reveals a removed tail'),
  firstInvalidId: z.string().nullable(),
  reason: z.string().nullable(),
});
class ChainVerificationDto extends createZodDto(verificationSchema) {}

function toPage<T extends PlatformAuditRow | TenantAuditRow>(rows: T[], limit: number) {
  const last = rows[rows.length - 1];
  return {
    items: rows.map((row) => ({ ...row, at: row.at.toISOString() })),
    nextCursor: rows.length === limit && last ? last.id : null,
  };
}

@ApiTags('audit')
@Controller('v1')
export class AuditController {
  constructor(private readonly audit: AuditLogService) {}

  @Get('audit')
  @RequirePermission('platform.audit.read')
  @ApiOperation({ summary: 'Platform audit log, newest first (platform admin); by actor, action, outcome, time' })
  @ZodResponse({ status: 200, type: AuditPageDto })
  async platform(@Query() query: AuditQueryDto) {
    return toPage(await this.audit.platformEntries(filterOf(query)), query.limit);
  }

  @Get('tenants/:slug/audit')
  @RequirePermission('tenant.audit.read')
  @ApiOperation({
    summary: "The tenant's hash-chained audit log, newest first: every MCP tool call and administrative action",
  })
  @ZodResponse({ status: 200, type: TenantAuditPageDto })
  async tenant(@Param() _params: SlugParamDto, @Query() query: AuditQueryDto, @CurrentTenant() tenant: TenantRef) {
    const rows = await this.audit.tenantEntries(tenant.schema, filterOf(query));
    return toPage(
      rows.map((row) => ({ ...row, tenantId: tenant.id })),
      query.limit,
    );
  }

  @Get('tenants/:slug/audit/verify')
  @RequirePermission('tenant.audit.read')
  @ApiOperation({ summary: "Recomputes the tenant's audit chain and reports the first entry that breaks it" })
  @ZodResponse({ status: 200, type: ChainVerificationDto })
  async verify(@Param() _params: SlugParamDto, @CurrentTenant() tenant: TenantRef) {
    return this.audit.verify(tenant.schema);
  }
}
