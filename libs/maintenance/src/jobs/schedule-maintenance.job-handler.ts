import { Inject, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { CAIRN_CONFIG, type CairnConfig } from '@cairn/config';
import { type HandlesJob, JobHandler, type JobPayload, JobQueue, type JobResult, MAINTENANCE_TASKS } from '@cairn/jobs';
import { TenantsService } from '@cairn/tenancy';
import { taskIntervalMs } from '../maintenance-schedule';

/**
 * One repeatable BullMQ job scheduler per maintenance task (idempotent across restarts and
 * replicas: the scheduler id is fixed), whose ticks (`schedule-maintenance`) fan the task
 * out to one job per live tenant. Per-tenant job ids include the time window, so two ticks
 * in one window, or two workers, never run a task twice for a tenant.
 */
@JobHandler('maintenance', 'schedule-maintenance')
export class ScheduleMaintenanceJobHandler
  implements HandlesJob<'maintenance', 'schedule-maintenance'>, OnApplicationBootstrap
{
  private readonly logger = new Logger('MaintenanceScheduler');

  constructor(
    @Inject(CAIRN_CONFIG) private readonly config: CairnConfig,
    private readonly jobs: JobQueue,
    private readonly tenants: TenantsService,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const queue = this.jobs.queue('maintenance');
    for (const task of MAINTENANCE_TASKS) {
      await queue
        .upsertJobScheduler(
          `maintenance-${task}`,
          { every: taskIntervalMs(task, this.config) },
          { name: 'schedule-maintenance', data: { task }, opts: { removeOnComplete: true, removeOnFail: 100 } },
        )
        .catch((error: unknown) =>
          this.logger.warn({ msg: 'could not schedule maintenance; Redis down?', task, err: error }),
        );
    }
  }

  async handle(payload: JobPayload<'maintenance', 'schedule-maintenance'>): Promise<JobResult> {
    const interval = taskIntervalMs(payload.task, this.config);
    const window = Math.floor(Date.now() / interval);
    let scheduled = 0;
    let cursor: string | undefined;
    do {
      const page = await this.tenants.list(200, cursor);
      for (const tenant of page.items) {
        const jobId = `${payload.task}-${tenant.id}-${window}`;
        if (await this.jobs.enqueue('maintenance', payload.task, { tenantId: tenant.id }, { jobId })) scheduled += 1;
      }
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
    return { status: 'done', counts: { tenants: scheduled } };
  }
}
