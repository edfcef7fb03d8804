import { ProviderError } from '@cairn/providers';
import { type EmbeddingMetrics } from './embedding-metrics.service';
import { type Embedder } from './embedding-model';

/**
 * Measures any embedder, the built-in one included. It cuts the input into batches of the
 * configured size itself, so each measured call is exactly one provider request (the inner
 * embedder then sees at most one batch) and the batch-size histogram shows what the provider
 * received. Failures are counted by `ProviderError` kind; anything else is `error`.
 */
export class MeasuredEmbedder implements Embedder {
  constructor(
    private readonly inner: Embedder,
    private readonly metrics: EmbeddingMetrics,
    private readonly batchSize: number,
  ) {}

  get model() {
    return this.inner.model;
  }

  /** One query, measured as a batch of one; the inner embedder's query form when it has one. */
  async embedQuery(query: string): Promise<Float32Array> {
    const inner = this.inner;
    const vector = inner.embedQuery
      ? await this.measure(1, () => inner.embedQuery!(query))
      : (await this.measure(1, () => inner.embed([query])))[0];
    if (!vector) throw new Error('the embedder returned no vector for the query');
    return vector;
  }

  async embed(texts: readonly string[]): Promise<Float32Array[]> {
    const size = Math.max(1, this.batchSize);
    const vectors: Float32Array[] = [];
    for (let start = 0; start < texts.length; start += size) {
      const batch = texts.slice(start, start + size);
      vectors.push(...(await this.measure(batch.length, () => this.inner.embed(batch))));
    }
    return vectors;
  }

  private async measure<T>(texts: number, call: () => Promise<T>): Promise<T> {
    const labels = { provider: this.inner.model.provider, model: this.inner.model.id };
    this.metrics.batchSize.observe(texts);
    const stopTimer = this.metrics.latency.startTimer(labels);
    try {
      const result = await call();
      this.metrics.requests.inc({ ...labels, outcome: 'ok' });
      return result;
    } catch (error) {
      this.metrics.requests.inc({ ...labels, outcome: error instanceof ProviderError ? error.kind : 'error' });
      throw error;
    } finally {
      stopTimer();
    }
  }
}
