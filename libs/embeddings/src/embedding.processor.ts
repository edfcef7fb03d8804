import { Inject, Injectable } from '@nestjs/common';
import { CAIRN_CONFIG, type CairnConfig } from '@cairn/config';
import { type EmbedJob } from '@cairn/jobs';
import { TenantTransaction } from '@cairn/tenancy';
import { CoalescingEmbedder } from './coalescing-embedder';
import { EMBEDDER, type Embedder } from './embedding-model';
import { EmbeddingTargets } from './embedding-targets.registry';

export type EmbedOutcome =
  { readonly status: 'embedded'; readonly count: number } | { readonly status: 'skipped'; readonly reason: string };

const BATCH = 64;

/**
 * Turns an `embed` job into stored vectors for the rows that still need them, in the tenant the
 * caller entered (the job's). Provider requests go through one CoalescingEmbedder per worker, so
 * the texts of concurrent jobs (one per write) share requests under load; the built-in embedder
 * computes locally and needs none.
 */
@Injectable()
export class EmbeddingProcessor {
  private readonly embedder: Embedder;

  constructor(
    @Inject(EMBEDDER) embedder: Embedder,
    @Inject(CAIRN_CONFIG) config: CairnConfig,
    private readonly targets: EmbeddingTargets,
    private readonly tx: TenantTransaction,
  ) {
    const { batchSize, maxInFlight } = config.embeddings;
    this.embedder = embedder.model.builtIn ? embedder : new CoalescingEmbedder(embedder, { batchSize, maxInFlight });
  }

  async process(job: Pick<EmbedJob, 'target' | 'ids'>): Promise<EmbedOutcome> {
    const handler = this.targets.get(job.target);
    const model = this.embedder.model;
    const pending = await this.tx.run(() => handler.pending(job.ids, model));
    if (pending.length === 0) return { status: 'skipped', reason: 'nothing left to embed' };
    let stored = 0;
    for (let start = 0; start < pending.length; start += BATCH) {
      const batch = pending.slice(start, start + BATCH);
      // No transaction is held while the model works.
      const vectors = await this.embedder.embed(batch.map((row) => row.text));
      const computed = batch.map((row, index) => ({
        id: row.id,
        contentHash: row.contentHash,
        vector: vectors[index] ?? new Float32Array(model.dimensions),
      }));
      stored += await this.tx.run(() => handler.store(computed, model));
    }
    return { status: 'embedded', count: stored };
  }
}
