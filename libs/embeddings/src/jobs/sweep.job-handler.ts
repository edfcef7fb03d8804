import { Inject } from '@nestjs/common';
import { CAIRN_CONFIG, type CairnConfig } from '@cairn/config';
import {
  BULK_JOB_SIZE,
  type HandlesJob,
  JobHandler,
  type JobPayload,
  JobQueue,
  type JobResult,
  type TenantJobInfo,
} from '@cairn/jobs';
import { TenantTransaction } from '@cairn/tenancy';
import { EMBEDDER, type Embedder } from '../embedding-model';
import { EmbeddingRollout } from '../embedding-rollout.service';
import { EmbeddingTargets } from '../embedding-targets.registry';

const SCAN_LIMIT = 2_000;
/** Bulk jobs stay small, so an interactive write never waits long for a worker slot. */
const PER_JOB = BULK_JOB_SIZE;
/** Rows younger than this probably still have their own job on the way. */
const SETTLED_SECONDS = 120;

/**
 * `maintenance/stale-embedding-sweep`: the guarantee behind "a lost enqueue never means a
 * memory that is never embedded". Finds live rows without a current vector of the active
 * model and enqueues embed jobs for them; also keeps the model rolled out in the tenant.
 */
@JobHandler('maintenance', 'stale-embedding-sweep')
export class SweepJobHandler implements HandlesJob<'maintenance', 'stale-embedding-sweep'> {
  constructor(
    @Inject(CAIRN_CONFIG) private readonly config: CairnConfig,
    @Inject(EMBEDDER) private readonly embedder: Embedder,
    private readonly rollout: EmbeddingRollout,
    private readonly targets: EmbeddingTargets,
    private readonly tx: TenantTransaction,
    private readonly jobs: JobQueue,
  ) {}

  async handle(
    _payload: JobPayload<'maintenance', 'stale-embedding-sweep'>,
    { tenant }: TenantJobInfo,
  ): Promise<JobResult> {
    await this.rollout.prepare(tenant);
    const window = Math.floor(Date.now() / (this.config.worker.sweepIntervalSeconds * 1000));
    const counts: Record<string, number> = {};
    for (const name of this.targets.names()) {
      const ids = await this.tx.run(() =>
        this.targets
          .get(name)
          .missing(this.embedder.model, { after: null, limit: SCAN_LIMIT, settledSeconds: SETTLED_SECONDS }),
      );
      for (let start = 0; start < ids.length; start += PER_JOB) {
        await this.jobs.enqueue(
          'embeddings',
          'embed',
          { tenantId: tenant.id, target: name, ids: ids.slice(start, start + PER_JOB), origin: 'bulk' },
          { jobId: `sweep-${name}-${tenant.id}-${window}-${start}` },
        );
      }
      counts[name] = ids.length;
    }
    return { status: 'done', counts };
  }
}
