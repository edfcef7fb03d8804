import { Inject, Injectable, type OnModuleInit, Optional } from '@nestjs/common';
import { CAIRN_CONFIG, type CairnConfig } from '@cairn/config';
import { ReadinessRegistry } from '@cairn/observability';
import { type ModelCatalogClient } from './model-client';
import { ModelPresenceCheck } from './model-presence';
import { ProviderClients } from './provider-clients.service';

/**
 * `/readyz` checks for the configured provider models. The built-in hash embedder reports
 * itself through the embed job handler; with no chat model there is nothing to check.
 */
@Injectable()
export class ProviderReadiness implements OnModuleInit {
  constructor(
    @Inject(CAIRN_CONFIG) private readonly config: CairnConfig,
    private readonly clients: ProviderClients,
    @Optional() private readonly readiness?: ReadinessRegistry,
  ) {}

  onModuleInit(): void {
    const { embeddings, chat } = this.config;
    // The local model reports itself (it is loaded in the process, or the process does not start).
    if ((embeddings.provider === 'ollama' || embeddings.provider === 'openai') && embeddings.model) {
      this.register('embedding-provider', this.clients.for(embeddings.provider), embeddings.model, 'embeddings');
    }
    if (chat.provider !== 'none' && chat.model) {
      this.register('chat-provider', this.clients.for(chat.provider), chat.model, 'chat');
    }
  }

  private register(name: string, client: ModelCatalogClient, model: string, purpose: string): void {
    const presence = new ModelPresenceCheck(client, model, { purpose });
    this.readiness?.register(name, () => presence.check());
  }
}
