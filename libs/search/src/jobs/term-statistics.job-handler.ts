import { type HandlesJob, JobHandler, type JobPayload, type JobResult } from '@cairn/jobs';
import { TenantContext, TenantsService, toTenantRef } from '@cairn/tenancy';
import { TermStatistics } from '../term-statistics.service';

/**
 * `maintenance/term-statistics-fold`: keeps the keyword ranker's statistics one row per term,
 * so ranking cost does not grow with the writes since the last fold.
 */
@JobHandler('maintenance', 'term-statistics-fold')
export class TermStatisticsFoldJobHandler implements HandlesJob<'maintenance', 'term-statistics-fold'> {
  constructor(
    private readonly statistics: TermStatistics,
    private readonly tenants: TenantsService,
    private readonly context: TenantContext,
  ) {}

  async handle(payload: JobPayload<'maintenance', 'term-statistics-fold'>): Promise<JobResult> {
    const found = await this.tenants.findLiveById(payload.tenantId);
    if (!found) return { status: 'skipped', detail: 'tenant no longer exists' };
    const result = await this.context.run(toTenantRef(found), () => this.statistics.fold());
    if (result.busy && result.deltas === 0) return { status: 'skipped', detail: 'another fold is running' };
    return { status: 'done', counts: { deltas: result.deltas, terms: result.terms } };
  }
}
