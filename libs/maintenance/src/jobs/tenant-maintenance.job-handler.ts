import { type HandlesJob, JobHandler, type JobPayload, type JobResult, type TenantJobInfo } from '@cairn/jobs';
import { TenantMaintenance } from '../tenant-maintenance.service';

/** `maintenance/retention-purge`: expired knowledge-base documents and audit entries. */
@JobHandler('maintenance', 'retention-purge')
export class RetentionPurgeJobHandler implements HandlesJob<'maintenance', 'retention-purge'> {
  constructor(private readonly maintenance: TenantMaintenance) {}

  handle(_payload: JobPayload<'maintenance', 'retention-purge'>, { tenant }: TenantJobInfo): Promise<JobResult> {
    return this.maintenance.purge(tenant);
  }
}

/** `maintenance/confidence-decay`: unused memories lose confidence, pinned ones never. */
@JobHandler('maintenance', 'confidence-decay')
export class ConfidenceDecayJobHandler implements HandlesJob<'maintenance', 'confidence-decay'> {
  constructor(private readonly maintenance: TenantMaintenance) {}

  handle(): Promise<JobResult> {
    return this.maintenance.decay();
  }
}

/** `maintenance/duplicate-scan`: records near-duplicate pairs per project for review. */
@JobHandler('maintenance', 'duplicate-scan')
export class DuplicateScanJobHandler implements HandlesJob<'maintenance', 'duplicate-scan'> {
  constructor(private readonly maintenance: TenantMaintenance) {}

  handle(): Promise<JobResult> {
    return this.maintenance.scanDuplicates();
  }
}
