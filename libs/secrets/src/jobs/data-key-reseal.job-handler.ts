import { type HandlesJob, JobHandler, type JobPayload, type JobResult } from '@cairn/jobs';
import { TenantContext, TenantsService, toTenantRef } from '@cairn/tenancy';
import { DataKeyRotation } from '../data-key-rotation.service';

/**
 * `maintenance/data-key-reseal`: after a data-key rotation, re-seals a bounded batch of the
 * tenant's sealed originals under the current version per run, so values nobody reads move too.
 * `partial` while envelopes remain on older versions; `done` once none do.
 */
@JobHandler('maintenance', 'data-key-reseal')
export class DataKeyResealJobHandler implements HandlesJob<'maintenance', 'data-key-reseal'> {
  constructor(
    private readonly rotation: DataKeyRotation,
    private readonly tenants: TenantsService,
    private readonly context: TenantContext,
  ) {}

  async handle(payload: JobPayload<'maintenance', 'data-key-reseal'>): Promise<JobResult> {
    const found = await this.tenants.findLiveById(payload.tenantId);
    if (!found) return { status: 'skipped', detail: 'tenant no longer exists' };
    const report = await this.context.run(toTenantRef(found), () => this.rotation.sweep());
    return { status: report.remaining > 0 ? 'partial' : 'done', counts: { ...report } };
  }
}
