import { Inject, type OnModuleInit } from '@nestjs/common';
import { type EmbedJob, type HandlesJob, JobHandler, type JobResult } from '@cairn/jobs';
import { ReadinessRegistry } from '@cairn/observability';
import { EMBEDDER, type Embedder } from '../embedding-model';
import { EmbeddingProcessor } from '../embedding.processor';

/** The worker's handler for `embeddings/embed`, and its readiness report on the embedder. */
@JobHandler('embeddings', 'embed')
export class EmbedJobHandler implements HandlesJob<'embeddings', 'embed'>, OnModuleInit {
  constructor(
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
  }

  async handle(payload: EmbedJob): Promise<JobResult> {
    const outcome = await this.processor.process(payload);
    return outcome.status === 'embedded'
      ? { status: 'done', counts: { embedded: outcome.count } }
      : { status: 'skipped', detail: outcome.reason };
  }
}
