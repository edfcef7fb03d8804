import {
  EMBEDDER,
  type Embedder,
  EmbeddingProcessor,
  EmbeddingTargets,
  VectorIndexes,
  VectorIndexesRepository,
} from '@cairn/embeddings';
import { MemoriesRepository, memoryContentHash } from '@cairn/memory';
import { ProjectsService } from '@cairn/projects';
import { TermStatistics } from '@cairn/search';
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import {
  TenantConnections,
  TenantEntry,
  type TenantRef,
  TenantsService,
  TenantTransaction,
  toTenantRef,
} from '@cairn/tenancy';
import { type BenchApp } from '../lib/app';
import { CachedEmbedder, EMBEDDING_CACHE_DIR } from '../lib/embedding-cache';
import { type Turn } from './longmemeval';

const BATCH = 500;

/** The one project of the pooled haystack. */
export const POOLED_PROJECT = 'conversations';

/** One project's memories: a slug and the turns stored in it. */
export interface ProjectTurns {
  readonly slug: string;
  readonly turns: readonly Turn[];
}

export interface IngestedCorpus {
  readonly tenant: TenantRef;
  /** Memory id → turn key (a turn stored in two projects has two ids). */
  readonly keyOf: ReadonlyMap<string, string>;
  /** The model id stored with the vectors (and used for the questions). */
  readonly embedder: string;
  readonly seconds: { insert: number; embed: number };
  /**
   * With `embedFirst`: embeds the turns it left without a vector (as the queue would reach them
   * after a burst) and returns how many; the corpus is then as settled as without it.
   */
  readonly embedRest?: () => Promise<number>;
}

export interface IngestOptions {
  /**
   * Only the turns this accepts get their vectors before `ingest` returns (those inline
   * embedding would have embedded at once); `embedRest` embeds the others.
   */
  readonly embedFirst?: (content: string) => boolean;
}

/**
 * Loads each group of turns as the memories of its own project: straight through the repository (the write
 * path's contradiction checks would compare 11k conversation turns with each other and
 * measure nothing this evaluation is about), then vectors through the worker's processor.
 */
export async function ingest(
  bench: Pick<BenchApp, 'app' | 'config'>,
  projects: readonly ProjectTurns[],
  log: (line: string) => void,
  options: IngestOptions = {},
): Promise<IngestedCorpus> {
  const { app } = bench;
  const tenant = toTenantRef(await app.get(TenantsService).create({ slug: 'longmemeval', name: 'LongMemEval' }));
  const entry = app.get(TenantEntry);
  const tx = app.get(TenantTransaction);
  const projectsService = app.get(ProjectsService, { strict: false });
  const repository = app.get(MemoriesRepository, { strict: false });
  const keyOf = new Map<string, string>();
  const contentOf = new Map<string, string>();
  const started = performance.now();
  const rows: { projectId: string; turn: Turn }[] = [];
  for (const { slug, turns } of projects) {
    const { id: projectId } = await entry.run(tenant, () => projectsService.create({ slug, name: slug }));
    for (const turn of turns) rows.push({ projectId, turn });
  }
  for (let start = 0; start < rows.length; start += BATCH) {
    await entry.run(tenant, () =>
      tx.run(async () => {
        for (const { projectId, turn } of rows.slice(start, start + BATCH)) {
          const id = randomUUID();
          keyOf.set(id, turn.key);
          contentOf.set(id, turn.content);
          await repository.insert({
            id,
            projectId,
            scope: 'project',
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
            // When it was said: the session's date, as a conversation import records it.
            occurredAt: turn.date,
          });
        }
      }),
    );
  }
  const inserted = performance.now();
  log(
    `inserted ${rows.length} memories into ${projects.length} project(s) in ${((inserted - started) / 1000).toFixed(1)} s`,
  );
  const model = app.get<Embedder>(EMBEDDER);
  // A real model's vectors are kept between runs (the hash embedder is faster than the cache).
  const embedder = model.model.builtIn ? model : new CachedEmbedder(model, EMBEDDING_CACHE_DIR);
  const processor = new EmbeddingProcessor(embedder, bench.config, app.get(EmbeddingTargets), tx);
  const embed = async (ids: readonly string[]): Promise<void> => {
    for (let start = 0; start < ids.length; start += BATCH) {
      await entry.run(tenant, () => processor.process({ target: 'memory', ids: ids.slice(start, start + BATCH) }));
    }
    // As an import of this size does (MemoryImporter): plans as good as after autovacuum's ANALYZE.
    await app.get(DataSource).query(`ANALYZE ${tenant.schema}.memories`);
  };
  const { embedFirst } = options;
  const all = [...keyOf.keys()];
  const first = embedFirst ? all.filter((id) => embedFirst(contentOf.get(id) ?? '')) : all;
  const rest = embedFirst ? all.filter((id) => !embedFirst(contentOf.get(id) ?? '')) : [];
  await embed(first);
  // Exact without it; the worker folds the write path's term-count deltas as a loaded service would.
  await entry.run(tenant, () => app.get(TermStatistics).fold());
  // As the worker's rollout does when a model becomes active: semantic ranking through the model's
  // HNSW index, approximate as in the product, not an exact scan (the hash model's is in the schema).
  if (!model.model.builtIn) {
    await new VectorIndexes(new VectorIndexesRepository(app.get(TenantConnections)), app.get(EmbeddingTargets)).ensure(
      tenant.schema,
      model.model,
    );
  }
  const embedded = performance.now();
  log(`embedded ${first.length} of them in ${((embedded - inserted) / 1000).toFixed(1)} s (${model.model.id})`);
  return {
    tenant,
    keyOf,
    embedder: model.model.id,
    seconds: { insert: (inserted - started) / 1000, embed: (embedded - inserted) / 1000 },
    ...(embedFirst
      ? {
          embedRest: async () => {
            await embed(rest);
            return rest.length;
          },
        }
      : {}),
  };
}
