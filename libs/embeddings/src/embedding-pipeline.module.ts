import { Global, Module } from '@nestjs/common';
import { EmbeddingProcessor } from './embedding.processor';
import { EmbeddingTargets } from './embedding-targets';
import { EmbeddingWorker } from './embedding.worker';

/** Registry of embedding targets; every app that writes or embeds rows imports it. */
@Global()
@Module({ providers: [EmbeddingTargets], exports: [EmbeddingTargets] })
export class EmbeddingTargetsModule {}

/** The consumer side, for the worker app only. */
@Module({ providers: [EmbeddingProcessor, EmbeddingWorker], exports: [EmbeddingProcessor] })
export class EmbeddingWorkerModule {}
