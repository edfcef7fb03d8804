import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { Audited, RequirePermission } from '@cairn/access';
import { slugSchema } from '@cairn/common';
import { CurrentTenant, type TenantRef } from '@cairn/tenancy';
import { createZodDto, ZodResponse } from 'nestjs-zod';
import { z } from 'zod';
import { QUEUE_NAMES, type QueueName } from '../contract/job-catalog';
import { type FailedJobPage, QueueAdmin } from '../queue-admin.service';

const queueSchema = z.enum(QUEUE_NAMES as [QueueName, ...QueueName[]]);
class SlugParamDto extends createZodDto(z.strictObject({ slug: slugSchema })) {}
class JobParamDto extends createZodDto(
  z.strictObject({ queue: queueSchema, id: z.string().regex(/^[A-Za-z0-9_.-]{1,200}$/, 'must be a job id') }),
) {}
class TenantJobParamDto extends createZodDto(
  z.strictObject({ slug: slugSchema, queue: queueSchema, id: z.string().regex(/^[A-Za-z0-9_.-]{1,200}$/) }),
) {}
const limitSchema = z.coerce.number().int().min(1).max(500).default(100);
/** A page's cursor: the offset of its first job in the newest-first list (see QueueAdmin.failed). */
const cursorSchema = z
  .string()
  .regex(/^(0|[1-9][0-9]{0,5})$/, 'must be a cursor returned by a previous page')
  .optional();
class FailedQueryDto extends createZodDto(
  z.strictObject({
    queue: queueSchema.optional(),
    tenant: z.uuid('must be a tenant id').optional(),
    limit: limitSchema,
    cursor: cursorSchema,
  }),
) {}
class TenantFailedQueryDto extends createZodDto(
  z.strictObject({ queue: queueSchema.optional(), limit: limitSchema, cursor: cursorSchema }),
) {}
class RetryAllDto extends createZodDto(
  z.strictObject({ queue: queueSchema.optional(), tenant: z.uuid().optional() }),
) {}
class TenantRetryAllDto extends createZodDto(z.strictObject({ queue: queueSchema.optional() })) {}

const failedJobSchema = z.object({
  id: z.string(),
  queue: queueSchema,
  name: z.string(),
  tenantId: z.string().nullable(),
  failedReason: z.string(),
  attemptsMade: z.number(),
  failedAt: z.iso.datetime().nullable(),
});
class FailedJobsDto extends createZodDto(
  z.object({
    items: z.array(failedJobSchema),
    nextCursor: z.string().nullable().describe('Pass as `cursor` for the next page; null after the last'),
  }),
) {}
class OverviewDto extends createZodDto(
  z.object({ queues: z.array(z.object({ queue: queueSchema, counts: z.record(z.string(), z.number()) })) }),
) {}
class RetriedDto extends createZodDto(z.object({ retried: z.number() })) {}

const view = (page: FailedJobPage) => ({
  items: page.items.map((j) => ({ ...j, failedAt: j.failedAt?.toISOString() ?? null })),
  nextCursor: page.nextOffset === null ? null : String(page.nextOffset),
});
const which = (queue?: QueueName) => (queue ? [queue] : QUEUE_NAMES);

@ApiTags('jobs')
@Controller('v1')
export class QueueAdminController {
  constructor(private readonly admin: QueueAdmin) {}

  @Get('admin/queues')
  @RequirePermission('platform.queues.manage')
  @ApiOperation({ summary: 'Jobs per state per queue' })
  @ZodResponse({ status: 200, type: OverviewDto })
  async overview() {
    return { queues: await this.admin.overview() };
  }

  @Get('admin/jobs/failed')
  @RequirePermission('platform.queues.manage')
  @ApiOperation({ summary: 'Failed jobs, newest first; optionally of one queue and one tenant' })
  @ZodResponse({ status: 200, type: FailedJobsDto })
  async failed(@Query() query: FailedQueryDto) {
    return view(await this.admin.failed(which(query.queue), query.tenant, query.limit, Number(query.cursor ?? 0)));
  }

  @Post('admin/queues/:queue/jobs/:id/retry')
  @HttpCode(204)
  @RequirePermission('platform.queues.manage')
  @Audited('job.retry')
  @ApiOperation({ summary: 'Retry one failed job' })
  async retry(@Param() params: JobParamDto): Promise<void> {
    await this.admin.retry(params.queue, params.id);
  }

  @Delete('admin/queues/:queue/jobs/:id')
  @HttpCode(204)
  @RequirePermission('platform.queues.manage')
  @Audited('job.remove')
  @ApiOperation({ summary: 'Remove one failed job for good (its error is gone with it)' })
  async remove(@Param() params: JobParamDto): Promise<void> {
    await this.admin.remove(params.queue, params.id);
  }

  @Post('admin/jobs/failed/retry')
  @HttpCode(200)
  @RequirePermission('platform.queues.manage')
  @Audited('job.retry-all')
  @ApiOperation({ summary: 'Retry every failed job (of a queue, of a tenant)' })
  @ZodResponse({ status: 200, type: RetriedDto })
  async retryAll(@Body() body: RetryAllDto) {
    return { retried: await this.admin.retryAll(which(body.queue), body.tenant) };
  }

  @Get('tenants/:slug/jobs/failed')
  @RequirePermission('tenant.jobs.manage')
  @ApiOperation({ summary: "The tenant's failed jobs, newest first" })
  @ZodResponse({ status: 200, type: FailedJobsDto })
  async tenantFailed(
    @Param() _params: SlugParamDto,
    @Query() query: TenantFailedQueryDto,
    @CurrentTenant() tenant: TenantRef,
  ) {
    return view(await this.admin.failed(which(query.queue), tenant.id, query.limit, Number(query.cursor ?? 0)));
  }

  @Post('tenants/:slug/queues/:queue/jobs/:id/retry')
  @HttpCode(204)
  @RequirePermission('tenant.jobs.manage')
  @Audited('job.retry')
  @ApiOperation({ summary: "Retry one of the tenant's failed jobs" })
  async tenantRetry(@Param() params: TenantJobParamDto, @CurrentTenant() tenant: TenantRef): Promise<void> {
    await this.admin.retry(params.queue, params.id, tenant.id);
  }

  @Delete('tenants/:slug/queues/:queue/jobs/:id')
  @HttpCode(204)
  @RequirePermission('tenant.jobs.manage')
  @Audited('job.remove')
  @ApiOperation({ summary: "Remove one of the tenant's failed jobs for good" })
  async tenantRemove(@Param() params: TenantJobParamDto, @CurrentTenant() tenant: TenantRef): Promise<void> {
    await this.admin.remove(params.queue, params.id, tenant.id);
  }

  @Post('tenants/:slug/jobs/failed/retry')
  @HttpCode(200)
  @RequirePermission('tenant.jobs.manage')
  @Audited('job.retry-all')
  @ApiOperation({ summary: 'Retry every failed job of the tenant' })
  @ZodResponse({ status: 200, type: RetriedDto })
  async tenantRetryAll(
    @Param() _params: SlugParamDto,
    @Body() body: TenantRetryAllDto,
    @CurrentTenant() tenant: TenantRef,
  ) {
    return { retried: await this.admin.retryAll(which(body.queue), tenant.id) };
  }
}
