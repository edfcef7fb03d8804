import { type EmbedJob, type HandlesJob, JobHandler, type JobResult } from '@cairn/jobs';
import { EmbeddingProcessor } from '../embedding.processor';

/** The worker's handler for `embeddings/embed` (run in the job's tenant by the registry). */
@JobHandler('embeddings', 'embed')
export class EmbedJobHandler implements HandlesJob<'embeddings', 'embed'> {
  constructor(private readonly processor: EmbeddingProcessor) {}

  async handle(payload: EmbedJob): Promise<JobResult> {
    const outcome = await this.processor.process(payload);
    return outcome.status === 'embedded'
      ? { status: 'done', counts: { embedded: outcome.count } }
      : { status: 'skipped', detail: outcome.reason };
  }
}
