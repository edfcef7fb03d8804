import { Inject, Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { JobQueue } from '@cairn/jobs';
import { TenantEntry, type TenantRef, TenantsService, TenantTransaction, toTenantRef } from '@cairn/tenancy';
import { EmbeddingBackfillsRepository } from './embedding-backfills.repository';
import { EMBEDDER, type Embedder } from './embedding-model';
import { EmbeddingTargets } from './embedding-targets.registry';
import { VectorIndexes } from './vector-indexes.service';

/**
 * Makes the active embedding model usable in a tenant: its vector indexes exist and a
 * backfill re-embeds whatever has no vector of it yet. Runs for every tenant when the worker
 * starts (so a model switch is picked up by a restart with the new configuration) and from
 * each periodic sweep (so tenants created later are covered too). Until a backfill is done,
 * semantic search covers the re-embedded part and keyword search finds the rest.
 */
@Injectable()
export class EmbeddingRollout implements OnApplicationBootstrap {
  private readonly logger = new Logger('EmbeddingRollout');

  constructor(
    @Inject(EMBEDDER) private readonly embedder: Embedder,
    private readonly tenants: TenantsService,
    private readonly entry: TenantEntry,
    private readonly tx: TenantTransaction,
    private readonly indexes: VectorIndexes,
    private readonly backfills: EmbeddingBackfillsRepository,
    private readonly targets: EmbeddingTargets,
    private readonly jobs: JobQueue,
  ) {}

  onApplicationBootstrap(): void {
    // In the background: index builds on large tenants must not hold the worker's start-up.
    void this.prepareAll().catch((error: unknown) =>
      this.logger.error({ msg: 'could not roll out the embedding model', err: error }),
    );
  }

  async prepareAll(): Promise<void> {
    let cursor: string | undefined;
    do {
      const page = await this.tenants.list(100, cursor);
      for (const tenant of page.items) {
        const ref = toTenantRef(tenant);
        await this.entry
          .run(ref, () => this.prepare(ref))
          .catch((error: unknown) =>
            this.logger.warn({
              msg: 'embedding rollout failed for a tenant; the next sweep retries',
              tenantId: tenant.id,
              err: error,
            }),
          );
      }
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
  }

  /** For the tenant the caller entered (`tenant` is it: the index build names its schema). */
  async prepare(tenant: TenantRef): Promise<void> {
    const model = this.embedder.model;
    await this.indexes.ensure(tenant.schema, model);
    const state = await this.tx.run(async () => {
      await this.backfills.start(model.id, model.dimensions);
      return this.backfills.get(model.id);
    });
    if (state?.status !== 'running') return;
    for (const target of this.targets.names()) {
      await this.jobs.enqueue(
        'embeddings',
        'reembed-backfill',
        { tenantId: tenant.id, model: model.id, target, after: null },
        { jobId: `backfill-${tenant.id}-${model.id}-${target}-start` },
      );
    }
  }
}
