import { Global, Module } from '@nestjs/common';
import { BackfillJobHandler } from './backfill.job-handler';
import { EmbedJobHandler } from './embed.job-handler';
import { EmbeddingBackfillsRepository } from './embedding-backfills.repository';
import { EmbeddingProcessor } from './embedding.processor';
import { EmbeddingRollout } from './embedding-rollout.service';
import { EmbeddingTargets } from './embedding-targets';
import { SweepJobHandler } from './sweep.job-handler';
import { VectorIndexes } from './vector-indexes';

/** Registry of embedding targets and backfill state; every app that writes, searches or embeds. */
@Global()
@Module({
  providers: [EmbeddingTargets, EmbeddingBackfillsRepository],
  exports: [EmbeddingTargets, EmbeddingBackfillsRepository],
})
export class EmbeddingTargetsModule {}

/** The consumer side (embed, backfill and sweep jobs; model rollout), for the worker app only. */
@Module({
  providers: [
    EmbeddingProcessor,
    EmbedJobHandler,
    BackfillJobHandler,
    SweepJobHandler,
    EmbeddingRollout,
    VectorIndexes,
  ],
  exports: [EmbeddingProcessor, EmbeddingRollout],
})
export class EmbeddingWorkerModule {}
