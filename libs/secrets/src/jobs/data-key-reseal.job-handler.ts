import { type HandlesJob, JobHandler, type JobResult } from '@cairn/jobs';
import { DataKeyRotation } from '../data-key-rotation.service';

/**
 * `maintenance/data-key-reseal`: after a data-key rotation, re-seals a bounded batch of the
 * tenant's sealed originals under the current version per run, so values nobody reads move too.
 * `partial` while envelopes remain on older versions; `done` once none do.
 */
@JobHandler('maintenance', 'data-key-reseal')
export class DataKeyResealJobHandler implements HandlesJob<'maintenance', 'data-key-reseal'> {
  constructor(private readonly rotation: DataKeyRotation) {}

  async handle(): Promise<JobResult> {
    const report = await this.rotation.sweep();
    return { status: report.remaining > 0 ? 'partial' : 'done', counts: { ...report } };
  }
}
