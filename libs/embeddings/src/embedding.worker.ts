import { Inject, Injectable, Logger, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { CAIRN_CONFIG, type CairnConfig } from '@cairn/config';
import { createBullConnection, type EmbedJob } from '@cairn/jobs';
import { type Job, Worker } from 'bullmq';
import { type Redis } from 'ioredis';
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
    private readonly processor: EmbeddingProcessor,
  ) {}

  onModuleInit(): void {
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
