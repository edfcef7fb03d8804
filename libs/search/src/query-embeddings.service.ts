import { Inject, Injectable } from '@nestjs/common';
import { EMBEDDER, type Embedder } from '@cairn/embeddings';
import { MetricsService } from '@cairn/observability';
import { LRUCache } from 'lru-cache';
import { Counter } from 'prom-client';

/** Query vectors kept per process: 2,000 × 768 dims × 4 bytes ≈ 6 MB. */
const CACHE_ENTRIES = 2_000;

/**
 * The vector of a search query, remembered per model. With a real provider every semantic or
 * hybrid search would otherwise wait for a model call (tens of milliseconds on a busy GPU,
 * competing with the worker's batches) although agents ask the same questions again and
 * again: at session start, after each task, from several agents of a team. A vector depends
 * only on the model and the text, so a cached one is never stale; concurrent searches for
 * the same text share one provider call; failures are not remembered.
 */
@Injectable()
export class QueryEmbeddings {
  private readonly cache = new LRUCache<string, Float32Array>({ max: CACHE_ENTRIES });
  private readonly inFlight = new Map<string, Promise<Float32Array>>();
  private readonly lookups: Counter<'outcome'>;

  constructor(
    @Inject(EMBEDDER) private readonly embedder: Embedder,
    metrics: MetricsService,
  ) {
    this.lookups = new Counter({
      name: 'cairn_query_embedding_lookups_total',
      help: 'Search query vectors by where they came from: hit (cached), shared (a concurrent call), miss (provider)',
      labelNames: ['outcome'],
      registers: [metrics.registry],
    });
  }

  async embed(query: string): Promise<Float32Array> {
    const key = `${this.embedder.model.id}\u0000${query}`;
    const cached = this.cache.get(key);
    if (cached) {
      this.lookups.inc({ outcome: 'hit' });
      return cached;
    }
    const pending = this.inFlight.get(key);
    if (pending) {
      this.lookups.inc({ outcome: 'shared' });
      return pending;
    }
    this.lookups.inc({ outcome: 'miss' });
    // A model trained with a query instruction (bge) gets it here, never for stored texts.
    const request = (
      this.embedder.embedQuery
        ? this.embedder.embedQuery(query)
        : this.embedder.embed([query]).then(([vector]) => vector)
    )
      .then((vector) => {
        if (!vector) throw new Error('the embedder returned no vector for the query');
        this.cache.set(key, vector);
        return vector;
      })
      .finally(() => this.inFlight.delete(key));
    this.inFlight.set(key, request);
    return request;
  }
}
