import { Inject, Injectable } from '@nestjs/common';
import { type EmbedJob } from '@cairn/jobs';
import { TenantContext, TenantsService, TenantTransaction, toTenantRef } from '@cairn/tenancy';
import { EMBEDDER, type Embedder } from './embedding-model';
import { EmbeddingTargets } from './embedding-targets';

export type EmbedOutcome =
  { readonly status: 'embedded'; readonly count: number } | { readonly status: 'skipped'; readonly reason: string };

const BATCH = 64;

/** Turns an `embed` job into stored vectors for the rows that still need them. */
@Injectable()
export class EmbeddingProcessor {
  constructor(
    @Inject(EMBEDDER) private readonly embedder: Embedder,
    private readonly targets: EmbeddingTargets,
    private readonly tenants: TenantsService,
    private readonly context: TenantContext,
    private readonly tx: TenantTransaction,
  ) {}

  async process(job: EmbedJob): Promise<EmbedOutcome> {
    const tenant = await this.tenants.findLiveById(job.tenantId);
    if (!tenant) return { status: 'skipped', reason: 'tenant no longer exists' };
    const handler = this.targets.get(job.target);
    const model = this.embedder.model;
    return this.context.run(toTenantRef(tenant), async () => {
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
    });
  }
}
