import { EMBEDDER, type Embedder, EmbeddingProcessor, EmbeddingTargets } from '@cairn/embeddings';
import { MemoriesRepository, memoryContentHash } from '@cairn/memory';
import { ProjectsService } from '@cairn/projects';
import { TermStatistics } from '@cairn/search';
import { randomUUID } from 'node:crypto';
import { TenantContext, type TenantRef, TenantsService, TenantTransaction, toTenantRef } from '@cairn/tenancy';
import { type BenchApp } from '../lib/app';
import { CachedEmbedder, EMBEDDING_CACHE_DIR } from '../lib/embedding-cache';
import { type Turn } from './longmemeval';

const BATCH = 500;

export interface IngestedCorpus {
  readonly tenant: TenantRef;
  readonly project: string;
  /** Memory id → turn key. */
  readonly keyOf: ReadonlyMap<string, string>;
  readonly seconds: { insert: number; embed: number };
}

/**
 * Loads the turns as memories of one project: straight through the repository (the write
 * path's contradiction checks would compare 11k conversation turns with each other and
 * measure nothing this evaluation is about), then vectors through the worker's processor.
 */
export async function ingest(
  bench: BenchApp,
  turns: readonly Turn[],
  log: (line: string) => void,
): Promise<IngestedCorpus> {
  const { app } = bench;
  const tenant = toTenantRef(await app.get(TenantsService).create({ slug: 'longmemeval', name: 'LongMemEval' }));
  const context = app.get(TenantContext);
  const tx = app.get(TenantTransaction);
  const project = 'conversations';
  const { id: projectId } = await context.run(tenant, () =>
    app.get(ProjectsService, { strict: false }).create({ slug: project, name: 'Conversations' }),
  );
  const repository = app.get(MemoriesRepository, { strict: false });
  const keyOf = new Map<string, string>();
  const started = performance.now();
  for (let start = 0; start < turns.length; start += BATCH) {
    await context.run(tenant, () =>
      tx.run(async () => {
        for (const turn of turns.slice(start, start + BATCH)) {
          const id = randomUUID();
          keyOf.set(id, turn.key);
          await repository.insert({
            id,
            projectId,
            content: turn.content,
            contentHash: memoryContentHash(turn.content, []),
            category: 'other',
            tags: [turn.role],
            keywords: [],
            importance: 3,
            confidence: 0.8,
            source: null,
            pinned: false,
            author: { userId: null, agentId: 'longmemeval', tokenId: randomUUID() },
            createdAt: turn.date,
          });
        }
      }),
    );
  }
  const inserted = performance.now();
  log(`inserted ${turns.length} memories in ${((inserted - started) / 1000).toFixed(1)} s`);
  const model = app.get<Embedder>(EMBEDDER);
  // A real model's vectors are kept between runs (the hash embedder is faster than the cache).
  const embedder = model.model.builtIn ? model : new CachedEmbedder(model, EMBEDDING_CACHE_DIR);
  const processor = new EmbeddingProcessor(
    embedder,
    bench.config,
    app.get(EmbeddingTargets),
    app.get(TenantsService),
    context,
    tx,
  );
  const ids = [...keyOf.keys()];
  for (let start = 0; start < ids.length; start += BATCH) {
    await processor.process({ tenantId: tenant.id, target: 'memory', ids: ids.slice(start, start + BATCH) });
  }
  // Exact without it; the worker folds the write path's term-count deltas as a loaded service would.
  await context.run(tenant, () => app.get(TermStatistics).fold());
  const embedded = performance.now();
  log(`embedded them in ${((embedded - inserted) / 1000).toFixed(1)} s (${app.get<Embedder>(EMBEDDER).model.id})`);
  return {
    tenant,
    project,
    keyOf,
    seconds: { insert: (inserted - started) / 1000, embed: (embedded - inserted) / 1000 },
  };
}
