import { Inject, Injectable, type OnModuleInit, Optional } from '@nestjs/common';
import { ReadinessRegistry } from '@cairn/observability';
import { EMBEDDER, type Embedder } from './embedding-model';

/**
 * `/readyz` names the embedder every app runs with. Ready as long as it can embed: the
 * built-in one always can (but says what it is), the local model is loaded before the app
 * starts, and a provider's own reachability is the provider check (ProviderReadiness).
 */
@Injectable()
export class EmbedderReadiness implements OnModuleInit {
  constructor(
    @Inject(EMBEDDER) private readonly embedder: Embedder,
    @Optional() private readonly readiness?: ReadinessRegistry,
  ) {}

  onModuleInit(): void {
    const model = this.embedder.model;
    this.readiness?.register('embedder', () =>
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
}
