import { Inject, Injectable, Logger, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { CAIRN_CONFIG, type CairnConfig } from '@cairn/config';
import { createBullConnection, type EmbedJob } from '@cairn/jobs';
import { ReadinessRegistry } from '@cairn/observability';
import { type Job, Worker } from 'bullmq';
import { type Redis } from 'ioredis';
import { EMBEDDER, type Embedder } from './embedding-model';
import { EmbeddingProcessor, type EmbedOutcome } from './embedding.processor';

/**
 * The worker app's consumer of the `embeddings` queue. The worker issue adds rate limiting,
 * sweeps and metrics; this is the first, complete path from a write to a stored vector.
 */
@Injectable()
export class EmbeddingWorker implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger('EmbeddingWorker');
  private worker?: Worker<EmbedJob, EmbedOutcome>;
  private connection?: Redis;

  constructor(
    @Inject(CAIRN_CONFIG) private readonly config: CairnConfig,
    @Inject(EMBEDDER) private readonly embedder: Embedder,
    private readonly processor: EmbeddingProcessor,
    private readonly readiness: ReadinessRegistry,
  ) {}

  onModuleInit(): void {
    const model = this.embedder.model;
    // Ready as long as the model can embed; the built-in embedder always can, but says what it is.
    this.readiness.register('embedder', () =>
      Promise.resolve({
        ok: true,
        info: {
          provider: model.provider,
          model: model.id,
          dimensions: model.dimensions,
          ...(model.builtIn ? { warning: 'built-in hash embedder: vectors capture word overlap, not meaning' } : {}),
        },
      }),
    );
    this.connection = createBullConnection(this.config, 'consumer');
    this.worker = new Worker<EmbedJob, EmbedOutcome>(
      'embeddings',
      (job: Job<EmbedJob, EmbedOutcome>) => this.processor.process(job.data),
      { connection: this.connection, prefix: this.config.queues.prefix, concurrency: 4 },
    );
    this.worker.on('failed', (job, error) => {
      this.logger.warn({ msg: 'embedding job failed', jobId: job?.id, attempts: job?.attemptsMade, err: error });
    });
    this.worker.on('error', (error) => this.logger.warn({ msg: 'embedding worker error', err: error }));
  }

  async onApplicationShutdown(): Promise<void> {
    await this.worker?.close();
    this.connection?.disconnect();
  }
}
