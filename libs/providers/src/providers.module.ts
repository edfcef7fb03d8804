import { Global, Inject, Injectable, Module, type OnModuleInit, Optional } from '@nestjs/common';
import { CAIRN_CONFIG, type CairnConfig } from '@cairn/config';
import { ReadinessRegistry } from '@cairn/observability';
import { GENERATOR, type Generator } from './generator';
import { OllamaGenerator, OpenAiGenerator } from './generators';
import { type ModelCatalogClient } from './model-client';
import { ModelPresenceCheck } from './model-presence';
import { OllamaClient } from './ollama.client';
import { OpenAiClient } from './openai.client';

/** One HTTP client per protocol, built from configuration and shared by embedder, generator and readiness. */
@Injectable()
export class ProviderClients {
  readonly ollama: OllamaClient;
  private readonly openAiClient: OpenAiClient | undefined;

  constructor(@Inject(CAIRN_CONFIG) config: CairnConfig) {
    const { ollama, openai, timeoutMs } = config.providers;
    this.ollama = new OllamaClient({ url: ollama.url, keepAlive: ollama.keepAlive, timeoutMs });
    this.openAiClient = openai.baseUrl
      ? new OpenAiClient({ baseUrl: openai.baseUrl, apiKey: openai.apiKey, timeoutMs })
      : undefined;
  }

  /** Configuration already refuses a provider `openai` without OPENAI_BASE_URL; this is the backstop. */
  get openai(): OpenAiClient {
    if (!this.openAiClient) throw new Error('OPENAI_BASE_URL is required when a provider is openai');
    return this.openAiClient;
  }

  for(provider: 'ollama' | 'openai'): OllamaClient | OpenAiClient {
    return provider === 'ollama' ? this.ollama : this.openai;
  }
}

/** The configured chat model, or null for CHAT_PROVIDER=none (callers then fall back to rules). */
export function createGenerator(config: CairnConfig, clients: ProviderClients): Generator | null {
  const { provider, model } = config.chat;
  if (provider === 'none' || !model) return null;
  return provider === 'ollama'
    ? new OllamaGenerator(clients.ollama, model)
    : new OpenAiGenerator(clients.openai, model);
}

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
    if (embeddings.provider !== 'hash' && embeddings.model) {
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

/**
 * Model providers for every app that embeds or generates (api and worker: the api embeds
 * queries). Global, so `GENERATOR` and `ProviderClients` are injectable anywhere.
 */
@Global()
@Module({
  providers: [
    ProviderClients,
    ProviderReadiness,
    { provide: GENERATOR, useFactory: createGenerator, inject: [CAIRN_CONFIG, ProviderClients] },
  ],
  exports: [ProviderClients, GENERATOR],
})
export class ProvidersModule {}
