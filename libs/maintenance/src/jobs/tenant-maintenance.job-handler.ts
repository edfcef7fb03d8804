import { type HandlesJob, JobHandler, type JobPayload, type JobResult } from '@cairn/jobs';
import { TenantMaintenance } from '../tenant-maintenance.service';

/** `maintenance/retention-purge`: expired knowledge-base documents and audit entries. */
@JobHandler('maintenance', 'retention-purge')
export class RetentionPurgeJobHandler implements HandlesJob<'maintenance', 'retention-purge'> {
  constructor(private readonly maintenance: TenantMaintenance) {}

  handle(payload: JobPayload<'maintenance', 'retention-purge'>): Promise<JobResult> {
    return this.maintenance.purge(payload.tenantId);
  }
}

/** `maintenance/confidence-decay`: unused memories lose confidence, pinned ones never. */
@JobHandler('maintenance', 'confidence-decay')
export class ConfidenceDecayJobHandler implements HandlesJob<'maintenance', 'confidence-decay'> {
  constructor(private readonly maintenance: TenantMaintenance) {}

  handle(payload: JobPayload<'maintenance', 'confidence-decay'>): Promise<JobResult> {
    return this.maintenance.decay(payload.tenantId);
  }
}

/** `maintenance/duplicate-scan`: records near-duplicate pairs per project for review. */
@JobHandler('maintenance', 'duplicate-scan')
export class DuplicateScanJobHandler implements HandlesJob<'maintenance', 'duplicate-scan'> {
  constructor(private readonly maintenance: TenantMaintenance) {}

  handle(payload: JobPayload<'maintenance', 'duplicate-scan'>): Promise<JobResult> {
    return this.maintenance.scanDuplicates(payload.tenantId);
  }
}
