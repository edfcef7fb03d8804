import { Global, Module } from '@nestjs/common';
import { EmbeddingProcessor } from './embedding.processor';
import { EmbeddingTargets } from './embedding-targets';
import { EmbedJobHandler } from './embed.job-handler';

/** Registry of embedding targets; every app that writes or embeds rows imports it. */
@Global()
@Module({ providers: [EmbeddingTargets], exports: [EmbeddingTargets] })
export class EmbeddingTargetsModule {}

/** The consumer side (the `embed` job handler), for the worker app only. */
@Module({ providers: [EmbeddingProcessor, EmbedJobHandler], exports: [EmbeddingProcessor] })
export class EmbeddingWorkerModule {}
