import { Global, Module } from '@nestjs/common';
import { EmbeddingBackfillsRepository } from './embedding-backfills.repository';
import { EmbeddingBackfills } from './embedding-backfills.service';
import { EmbeddingProcessor } from './embedding.processor';
import { EmbeddingRollout } from './embedding-rollout.service';
import { EmbeddingTargets } from './embedding-targets.registry';
import { InlineEmbedding } from './inline-embedding.service';
import { VectorIndexesRepository } from './vector-indexes.repository';
import { VectorIndexes } from './vector-indexes.service';

/**
 * Registry of embedding targets, backfill state and inline embedding of short writes; every app
 * that writes, searches or embeds.
 */
@Global()
@Module({
  providers: [EmbeddingTargets, EmbeddingBackfillsRepository, EmbeddingBackfills, InlineEmbedding],
  exports: [EmbeddingTargets, EmbeddingBackfillsRepository, EmbeddingBackfills, InlineEmbedding],
})
export class EmbeddingTargetsModule {}

/**
 * The consumer side's use cases (embedding rows, rolling a model out, its vector indexes), for
 * the worker only (through EmbeddingWorkerModule): the rollout starts when the app boots.
 */
@Module({
  providers: [EmbeddingProcessor, EmbeddingRollout, VectorIndexes, VectorIndexesRepository],
  exports: [EmbeddingProcessor, EmbeddingRollout],
})
export class EmbeddingPipelineModule {}
