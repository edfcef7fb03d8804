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

  async embed(texts: readonly string[]): Promise<Float32Array[]> {
    const labels = { provider: this.inner.model.provider, model: this.inner.model.id };
    const size = Math.max(1, this.batchSize);
    const vectors: Float32Array[] = [];
    for (let start = 0; start < texts.length; start += size) {
      const batch = texts.slice(start, start + size);
      this.metrics.batchSize.observe(batch.length);
      const stopTimer = this.metrics.latency.startTimer(labels);
      try {
        vectors.push(...(await this.inner.embed(batch)));
        this.metrics.requests.inc({ ...labels, outcome: 'ok' });
      } catch (error) {
        this.metrics.requests.inc({ ...labels, outcome: error instanceof ProviderError ? error.kind : 'error' });
        throw error;
      } finally {
        stopTimer();
      }
    }
    return vectors;
  }
}
