import { Injectable } from '@nestjs/common';
import { MetricsService } from '@cairn/observability';
import { ProviderError } from '@cairn/providers';
import { Counter, Histogram } from 'prom-client';
import { type Embedder } from './embedding-model';

/** Embedding metrics on the process registry; one instance per app. */
@Injectable()
export class EmbeddingMetrics {
  readonly requests: Counter<'provider' | 'model' | 'outcome'>;
  readonly batchSize: Histogram;
  readonly latency: Histogram<'provider' | 'model'>;

  constructor(metrics: MetricsService) {
    const registers = [metrics.registry];
    this.requests = new Counter({
      name: 'cairn_embedding_requests_total',
      help: 'Embedding provider calls by provider, model id and outcome (ok or the provider error kind)',
      labelNames: ['provider', 'model', 'outcome'],
      registers,
    });
    this.batchSize = new Histogram({
      name: 'cairn_embedding_batch_size',
      help: 'Texts per embedding provider call',
      buckets: [1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024],
      registers,
    });
    this.latency = new Histogram({
      name: 'cairn_embedding_latency_seconds',
      help: 'Embedding provider call duration, whatever the outcome',
      labelNames: ['provider', 'model'],
      buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
      registers,
    });
  }
}

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
