import { Module } from '@nestjs/common';
import { EmbeddingPipelineModule } from '../embedding-pipeline.module';
import { BackfillJobHandler } from './backfill.job-handler';
import { EmbedJobHandler } from './embed.job-handler';
import { SweepJobHandler } from './sweep.job-handler';

/** The consumer side (embed, backfill and sweep jobs; model rollout), for the worker app only. */
@Module({
  imports: [EmbeddingPipelineModule],
  providers: [EmbedJobHandler, BackfillJobHandler, SweepJobHandler],
  exports: [EmbeddingPipelineModule],
})
export class EmbeddingWorkerModule {}
