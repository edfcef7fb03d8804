import { Inject } from '@nestjs/common';
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
import { EmbeddingBackfillsRepository } from '../embedding-backfills.repository';
import { EMBEDDER, type Embedder } from '../embedding-model';
import { EmbeddingTargets } from '../embedding-targets.registry';
import { EmbeddingProcessor } from '../embedding.processor';

/** A link of the chain is a bulk job: small, so it never holds a worker slot long (docs/embedding-queue.md). */
const BATCH = BULK_JOB_SIZE;

/**
 * `embeddings/reembed-backfill`: one batch of rows without a vector of the model, then the
 * next job, resuming after the last id: a chain that survives restarts (each link is a job
 * with a deterministic id) and stops by itself when nothing is missing.
 */
@JobHandler('embeddings', 'reembed-backfill')
export class BackfillJobHandler implements HandlesJob<'embeddings', 'reembed-backfill'> {
  constructor(
    @Inject(EMBEDDER) private readonly embedder: Embedder,
    private readonly processor: EmbeddingProcessor,
    private readonly targets: EmbeddingTargets,
    private readonly tx: TenantTransaction,
    private readonly backfills: EmbeddingBackfillsRepository,
    private readonly jobs: JobQueue,
  ) {}

  async handle(payload: JobPayload<'embeddings', 'reembed-backfill'>, { tenant }: TenantJobInfo): Promise<JobResult> {
    const model = this.embedder.model;
    if (payload.model !== model.id) return { status: 'skipped', detail: 'that model is no longer the active one' };
    const target = this.targets.get(payload.target);
    const ids = await this.tx.run(() =>
      target.missing(model, { after: payload.after, limit: BATCH, settledSeconds: 0 }),
    );
    if (ids.length === 0) {
      await this.completeIfDone();
      return { status: 'done', detail: `no ${payload.target} rows left without a vector` };
    }
    const outcome = await this.processor.process({ target: payload.target, ids });
    const embedded = outcome.status === 'embedded' ? outcome.count : 0;
    await this.tx.run(() => this.backfills.progress(model.id, embedded));
    const last = ids[ids.length - 1];
    await this.jobs.enqueue(
      'embeddings',
      'reembed-backfill',
      { ...payload, after: last },
      { jobId: `backfill-${tenant.id}-${model.id}-${payload.target}-${last}` },
    );
    return { status: 'partial', counts: { embedded } };
  }

  /** Done when no target has rows without a vector of the model. */
  private async completeIfDone(): Promise<void> {
    const model = this.embedder.model;
    await this.tx.run(async () => {
      for (const name of this.targets.names()) {
        const left = await this.targets.get(name).missing(model, { after: null, limit: 1, settledSeconds: 0 });
        if (left.length > 0) return;
      }
      await this.backfills.complete(model.id);
    });
  }
}
