import { Inject, Injectable } from '@nestjs/common';
import { CAIRN_CONFIG, type CairnConfig } from '@cairn/config';
import { type EmbedJob } from '@cairn/jobs';
import { TenantTransaction } from '@cairn/tenancy';
import { CoalescingEmbedder } from './coalescing-embedder';
import { embedRows } from './embed-rows';
import { EMBEDDER, type Embedder } from './embedding-model';
import { EmbeddingTargets } from './embedding-targets.registry';

export type EmbedOutcome =
  { readonly status: 'embedded'; readonly count: number } | { readonly status: 'skipped'; readonly reason: string };

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
    const { pending, stored } = await embedRows(this.targets.get(job.target), this.embedder, this.tx, job.ids);
    // A row an inline embed (or an earlier job) already gave a current vector costs one read.
    if (pending === 0) return { status: 'skipped', reason: 'nothing left to embed' };
    return { status: 'embedded', count: stored };
  }
}
