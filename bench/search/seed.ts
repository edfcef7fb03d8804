/**
 * Seeding: the exchange files for the baseline (corpus JSONL + Float32 vectors, queries) and a
 * Cairn project with N memories. Cairn's rows go in fast, bypassing the product write path on
 * purpose (that path, with its contradiction check, is measured in the store phase): a bulk
 * INSERT … SELECT FROM jsonb_to_recordset inside tenant transactions, then vectors through
 * the worker's own EmbeddingProcessor, then the term-statistics fold the worker runs every
 * sweep interval (rankings are exact without it, but read every appended delta) and
 * VACUUM (ANALYZE) for the planner, as autovacuum would after a bulk load.
 */
import { closeSync, openSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { type Embedder, EmbeddingTargets, VectorIndexes, VectorIndexesRepository } from '@cairn/embeddings';
import { memoryContentHash, memoryEmbeddingText } from '@cairn/memory';
import { TermStatistics } from '@cairn/search';
import { quotedSchema, TenantConnections, type TenantRef } from '@cairn/tenancy';
import { type BaselineMemory, EXCHANGE_FILES } from '../baseline/protocol';
import { type CorpusMemory } from './corpus';
import { type SearchApp, type SearchTenant } from './fixture';

const DAY_MS = 86_400_000;
const INSERT_BATCH = 1_000;
const EMBED_BATCH = 1_000;
/** Embedding jobs in flight while seeding, as a worker with concurrency 2 would run them. */
const EMBED_CONCURRENCY = 2;

/**
 * The memories to seed, by index: an array, or a generator over the corpus (`corpusMemory` is a
 * pure function of its index), so a million memories never sit in memory at once.
 */
export interface MemorySource {
  readonly length: number;
  at(index: number): CorpusMemory | undefined;
}

/** The ids of the seeded memories, by corpus index: an array, or derived from the index. */
export interface IdSource {
  readonly length: number;
  at(index: number): string | undefined;
}

function idsBetween(ids: IdSource, start: number, end: number): string[] {
  return Array.from({ length: Math.min(end, ids.length) - start }, (_, offset) => ids.at(start + offset) ?? '');
}

export interface SeedTimings {
  readonly insertSeconds: number;
  readonly embedSeconds: number;
  readonly embedConcurrency: number;
  /** The term-statistics fold after the bulk load: its time and the deltas it moved. */
  readonly foldSeconds: number;
  readonly foldedDeltas: number;
  readonly vacuumAnalyzeSeconds: number;
  readonly embedded: number;
  /** What EmbeddingProcessor.process said it embedded (summed over batches). */
  readonly reportedEmbedded: number;
  readonly tableBytes: number;
}

export function createdAt(memory: CorpusMemory, runStart: Date): Date {
  return new Date(runStart.getTime() - memory.ageDays * DAY_MS);
}

export function toBaselineMemory(memory: CorpusMemory, runStart: Date): BaselineMemory {
  const { content, category, tags, keywords, importance, confidence } = memory;
  return {
    content,
    category,
    tags,
    keywords,
    importance,
    confidence,
    createdAt: createdAt(memory, runStart).toISOString(),
  };
}

/**
 * JSONL plus Float32 vectors made by the same embedder, over the text the memory target embeds,
 * written a batch at a time (the files of a million memories run to gigabytes).
 */
export async function writeMemoryFiles(
  dir: string,
  files: { jsonl: string; vectors: string },
  memories: MemorySource,
  embedder: Embedder,
  runStart: Date,
): Promise<void> {
  const jsonl = openSync(join(dir, files.jsonl), 'w');
  const fd = openSync(join(dir, files.vectors), 'w');
  try {
    for (let start = 0; start < memories.length; start += EMBED_BATCH) {
      const batch = Array.from({ length: Math.min(EMBED_BATCH, memories.length - start) }, (_, offset) => {
        const memory = memories.at(start + offset);
        if (!memory) throw new Error(`no memory ${start + offset}`);
        return memory;
      });
      writeSync(jsonl, batch.map((memory) => `${JSON.stringify(toBaselineMemory(memory, runStart))}\n`).join(''));
      const vectors = await embedder.embed(batch.map((m) => memoryEmbeddingText(m.content, m.keywords)));
      for (const vector of vectors) writeSync(fd, new Uint8Array(vector.buffer, vector.byteOffset, vector.byteLength));
    }
  } finally {
    closeSync(fd);
    closeSync(jsonl);
  }
}

export async function writeQueries(dir: string, texts: readonly string[], embedder: Embedder): Promise<void> {
  writeFileSync(join(dir, EXCHANGE_FILES.queries), texts.map((text) => JSON.stringify(text)).join('\n') + '\n');
  if (embedder.model.builtIn) return;
  const vectors = await embedder.embed(texts);
  writeFileSync(
    join(dir, EXCHANGE_FILES.queryVectors),
    Buffer.concat(vectors.map((v) => Buffer.from(v.buffer, v.byteOffset, v.byteLength))),
  );
}

/** One row of BULK_MEMORY_INSERT_SQL's record set, and of the scopes seed's (which adds placement and authors). */
export function bulkMemoryRow(id: string, memory: CorpusMemory, runStart: Date) {
  return {
    id,
    content: memory.content,
    content_hash: memoryContentHash(memory.content, memory.keywords),
    category: memory.category,
    tags: memory.tags,
    keywords: memory.keywords,
    importance: memory.importance,
    confidence: memory.confidence,
    created_at: createdAt(memory, runStart).toISOString(),
  };
}

export const BULK_MEMORY_INSERT_SQL = `
  INSERT INTO memories (id, project_id, content, content_hash, category, tags, keywords, importance, confidence,
    author_user_id, author_agent_id, author_token_id, created_at, updated_at)
  SELECT u.id, $2::uuid, u.content, u.content_hash, u.category, u.tags, u.keywords, u.importance, u.confidence,
    $3::uuid, $4, $5::uuid, u.created_at, u.created_at
  FROM jsonb_to_recordset($1::jsonb) AS u(id uuid, content text, content_hash text, category text, tags text[],
    keywords text[], importance smallint, confidence real, created_at timestamptz)`;

/** Inserts `memories` with the given ids, embeds them, vacuums and analyzes the table. */
export async function seedCairn(
  bench: SearchApp,
  target: SearchTenant,
  memories: MemorySource,
  ids: IdSource,
  runStart: Date,
  log: (line: string) => void,
): Promise<SeedTimings> {
  const { principal } = target;
  const inTenant = <T>(work: () => Promise<T>): Promise<T> => bench.entry.run(target.tenant, work);

  const begin = performance.now();
  for (let start = 0; start < memories.length; start += INSERT_BATCH) {
    const rows = idsBetween(ids, start, Math.min(start + INSERT_BATCH, memories.length)).map((id, offset) => {
      const memory = memories.at(start + offset);
      if (!memory) throw new Error(`no memory ${start + offset}`);
      return bulkMemoryRow(id, memory, runStart);
    });
    await inTenant(() =>
      bench.tx.run(() =>
        bench.db.query(BULK_MEMORY_INSERT_SQL, [
          JSON.stringify(rows),
          target.projectId,
          principal.userId,
          principal.agentId,
          principal.tokenId,
        ]),
      ),
    );
  }
  const insertSeconds = (performance.now() - begin) / 1000;
  log(`  inserted ${memories.length} memories in ${insertSeconds.toFixed(1)} s`);
  return { insertSeconds, ...(await embedAndSettle(bench, target.tenant, ids, log)) };
}

/**
 * After a bulk insert of `ids` into `tenant`: vectors through the worker's EmbeddingProcessor,
 * the model's HNSW index when it is not the built-in one, the term-statistics fold and
 * VACUUM (ANALYZE), as the worker and autovacuum would leave the table.
 */
export async function embedAndSettle(
  bench: SearchApp,
  tenant: TenantRef,
  ids: IdSource,
  log: (line: string) => void,
): Promise<Omit<SeedTimings, 'insertSeconds'>> {
  const inTenant = <T>(work: () => Promise<T>): Promise<T> => bench.entry.run(tenant, work);
  let begin = performance.now();
  let reported = 0;
  let next = 0;
  const embedWorker = async (): Promise<void> => {
    for (let start = next; start < ids.length; start = next) {
      next += EMBED_BATCH;
      const batch = idsBetween(ids, start, start + EMBED_BATCH);
      const outcome = await inTenant(() => bench.processor.process({ target: 'memory', ids: batch }));
      if (outcome.status === 'embedded') reported += outcome.count;
    }
  };
  await Promise.all(Array.from({ length: EMBED_CONCURRENCY }, () => embedWorker()));
  const embedSeconds = (performance.now() - begin) / 1000;
  const [counted] = await inTenant(() =>
    bench.tx.run(() =>
      bench.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM memories WHERE embedded_hash = content_hash`),
    ),
  );
  const embedded = counted?.n ?? 0;
  log(
    `  embedded ${embedded} memories in ${embedSeconds.toFixed(1)} s ` +
      `(EmbeddingProcessor, ${bench.embedder.model.id}, ${EMBED_CONCURRENCY} batches of ${EMBED_BATCH} at once)`,
  );
  if (embedded !== ids.length) throw new Error(`embedded ${embedded} of ${ids.length} memories`);
  if (reported !== embedded) log(`  note: EmbeddingProcessor reported ${reported} embedded, the table has ${embedded}`);
  if (!bench.embedder.model.builtIn) {
    // The built-in model's HNSW index comes with the schema; another model's is built by the
    // worker's rollout when the model becomes active. The bench has no worker: build it the same way.
    begin = performance.now();
    await new VectorIndexes(
      new VectorIndexesRepository(bench.app.get(TenantConnections)),
      bench.app.get(EmbeddingTargets),
    ).ensure(tenant.schema, bench.embedder.model);
    log(`  built the ${bench.embedder.model.id} HNSW index in ${((performance.now() - begin) / 1000).toFixed(1)} s`);
  }

  begin = performance.now();
  const folded = await inTenant(() => bench.app.get(TermStatistics).fold());
  const foldSeconds = (performance.now() - begin) / 1000;
  log(`  folded ${folded.deltas} term-count deltas in ${foldSeconds.toFixed(1)} s`);
  begin = performance.now();
  const table = `${quotedSchema(tenant.schema)}.memories`;
  await bench.dataSource.query(`VACUUM (ANALYZE) ${table}`);
  const vacuumAnalyzeSeconds = (performance.now() - begin) / 1000;
  const [size] = await bench.dataSource.query<{ bytes: string }[]>(`SELECT pg_total_relation_size($1) AS bytes`, [
    table,
  ]);
  return {
    embedSeconds,
    embedConcurrency: EMBED_CONCURRENCY,
    foldSeconds,
    foldedDeltas: folded.deltas,
    vacuumAnalyzeSeconds,
    embedded,
    reportedEmbedded: reported,
    tableBytes: Number(size?.bytes ?? 0),
  };
}
