/**
 * The provider's own throughput at a batch size and concurrency: the production Ollama client
 * (`OllamaClient.embed`, what the worker's embedder calls) in `concurrency` closed loops
 * against the same fake model server, with nothing else around it. The worker's rate over
 * this is its overhead ratio.
 */
import { type OllamaClient } from '@cairn/providers';
import { type LatencySummary, summarize } from '../lib/stats';

export interface RawThroughput {
  readonly batchSize: number;
  readonly concurrency: number;
  readonly seconds: number;
  readonly calls: number;
  readonly items: number;
  readonly itemsPerSecond: number;
  readonly callMs: LatencySummary;
}

const WARMUP_MS = 200;

export async function measureRawProvider(
  client: OllamaClient,
  model: string,
  texts: readonly string[],
  batchSize: number,
  concurrency: number,
  seconds: number,
): Promise<RawThroughput> {
  let cursor = 0;
  const nextBatch = () => {
    const batch: string[] = [];
    for (let i = 0; i < batchSize; i += 1) batch.push(texts[cursor++ % texts.length] ?? '');
    return batch;
  };
  // Warm-up: connections opened, JIT settled; not measured.
  const warmEnd = performance.now() + WARMUP_MS;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < warmEnd) await client.embed(model, nextBatch());
    }),
  );
  const callMs: number[] = [];
  let items = 0;
  const begin = performance.now();
  const end = begin + seconds * 1000;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < end) {
        const batch = nextBatch();
        const started = performance.now();
        const vectors = await client.embed(model, batch);
        callMs.push(performance.now() - started);
        if (vectors.length !== batch.length) throw new Error('the provider answered the wrong number of vectors');
        items += batch.length;
      }
    }),
  );
  const elapsed = (performance.now() - begin) / 1000;
  return {
    batchSize,
    concurrency,
    seconds: elapsed,
    calls: callMs.length,
    items,
    itemsPerSecond: items / elapsed,
    callMs: summarize(callMs),
  };
}
