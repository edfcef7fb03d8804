import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { RequirePermission } from '@cairn/access';
import { CurrentTenant, SlugParamDto, type TenantRef } from '@cairn/tenancy';
import { createZodDto, ZodResponse } from 'nestjs-zod';
import { z } from 'zod';
import { type PlatformAuditRow, PlatformAuditRepository } from '../platform-audit.repository';

const auditQuerySchema = z.strictObject({
  limit: z.coerce.number().int().min(1).max(500).default(100),
  before: z
    .string()
    .regex(/^[1-9][0-9]{0,18}$/, 'must be an audit entry id')
    .optional(),
});
class AuditQueryDto extends createZodDto(auditQuerySchema) {}

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

function toPage(rows: PlatformAuditRow[], limit: number) {
  const last = rows[rows.length - 1];
  return {
    items: rows.map((row) => ({ ...row, at: row.at.toISOString() })),
    nextCursor: rows.length === limit && last ? last.id : null,
  };
}

@ApiTags('audit')
@Controller('v1')
export class AuditController {
  constructor(private readonly audit: PlatformAuditRepository) {}

  @Get('audit')
  @RequirePermission('platform.audit.read')
  @ApiOperation({ summary: 'Platform audit log, newest first (platform admin)' })
  @ZodResponse({ status: 200, type: AuditPageDto })
  async platform(@Query() query: AuditQueryDto) {
    return toPage(await this.audit.list({ limit: query.limit, beforeId: query.before }), query.limit);
  }

  @Get('tenants/:slug/audit')
  @RequirePermission('tenant.audit.read')
  @ApiOperation({ summary: "One tenant's administrative audit entries, newest first" })
  @ZodResponse({ status: 200, type: AuditPageDto })
  async tenant(@Param() _params: SlugParamDto, @Query() query: AuditQueryDto, @CurrentTenant() tenant: TenantRef) {
    const rows = await this.audit.list({ tenantId: tenant.id, limit: query.limit, beforeId: query.before });
    return toPage(rows, query.limit);
  }
}
