import { Inject, Injectable } from '@nestjs/common';
import { CAIRN_CONFIG, type CairnConfig } from '@cairn/config';
import { EMBEDDER, type Embedder, EmbeddingBackfills } from '@cairn/embeddings';
import { ModelPresenceCheck, ProviderClients } from '@cairn/providers';
import { TenantTransaction } from '@cairn/tenancy';

export interface SearchStatus {
  readonly mode: 'hybrid' | 'keyword';
  readonly reason: string;
  readonly embedding: { provider: string; model: string; dimensions: number; builtIn: boolean };
  /** Re-embedding of this tenant's rows for the active model; null when none was recorded yet. */
  readonly backfill: {
    status: 'running' | 'done';
    embedded: number;
    startedAt: string;
    completedAt: string | null;
  } | null;
  /** Whether the provider serves the model (cached probe); null for the built-in embedder. */
  readonly providerReachable: boolean | null;
}

/**
 * What search can do for the caller's tenant right now, from what this process knows: the
 * configured embedder, the tenant's backfill state for it, and (for a provider model) a
 * cached presence probe. Never shows provider URLs or errors: agents only need the verdict.
 */
@Injectable()
export class SearchStatusReader {
  private readonly presence: ModelPresenceCheck | null;

  constructor(
    @Inject(CAIRN_CONFIG) config: CairnConfig,
    @Inject(EMBEDDER) private readonly embedder: Embedder,
    private readonly tx: TenantTransaction,
    private readonly backfills: EmbeddingBackfills,
    clients: ProviderClients,
  ) {
    const { provider, model } = config.embeddings;
    // One probe per process, cached 30 s (5 s after a failure): status calls never hammer the provider.
    this.presence =
      provider === 'hash' || provider === 'local' || !model
        ? null
        : new ModelPresenceCheck(clients.for(provider), model, { purpose: 'embeddings' });
  }

  /** Runs inside the caller's tenant context. */
  async read(): Promise<SearchStatus> {
    const model = this.embedder.model;
    const [state, reachable] = await Promise.all([
      this.tx.run(() => this.backfills.state(model.id)),
      this.presence ? this.presence.check().then((result) => result.ok) : Promise.resolve(null),
    ]);
    const backfill = state && {
      status: state.status,
      embedded: state.embedded,
      startedAt: new Date(state.startedAt).toISOString(),
      completedAt: state.completedAt === null ? null : new Date(state.completedAt).toISOString(),
    };
    const embedding = {
      provider: model.provider,
      model: model.id,
      dimensions: model.dimensions,
      builtIn: model.builtIn,
    };
    if (reachable === false) {
      const reason =
        `the embedding provider (${model.provider}) does not answer or does not serve ${model.id}: ` +
        'searches fall back to keyword only until it does';
      return { mode: 'keyword', reason, embedding, backfill, providerReachable: false };
    }
    const reasons = [
      model.builtIn
        ? `vectors come from the built-in hash embedder (${model.id}): word overlap, not meaning, so the semantic signal only nudges keyword ranking`
        : `semantic vectors from ${model.provider} model ${model.id} are combined with keyword ranking`,
    ];
    if (backfill?.status === 'running') {
      reasons.push(
        `re-embedding for this model is in progress (${backfill.embedded} rows so far): the rest is found by keyword`,
      );
    } else if (!backfill) {
      reasons.push(
        'no re-embedding has been recorded for this model yet: rows without its vector are found by keyword',
      );
    }
    return { mode: 'hybrid', reason: reasons.join('; '), embedding, backfill, providerReachable: reachable };
  }
}
