import { Injectable } from '@nestjs/common';
import { MetricsService } from '@cairn/observability';
import { Counter, Histogram } from 'prom-client';

/** Embedding metrics on the process registry; one instance per app. */
@Injectable()
export class EmbeddingMetrics {
  readonly requests: Counter<'provider' | 'model' | 'outcome'>;
  readonly batchSize: Histogram;
  readonly latency: Histogram<'provider' | 'model'>;
  readonly inline: Counter<'outcome'>;

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
    this.inline = new Counter({
      name: 'cairn_embedding_inline_total',
      help: 'Writes embedded in the writing process after commit, by outcome (done, over_budget, skipped_too_long, skipped_busy, error); all but done are left to the queue',
      labelNames: ['outcome'],
      registers,
    });
  }
}
