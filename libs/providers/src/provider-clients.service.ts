import { Inject, Injectable } from '@nestjs/common';
import { CAIRN_CONFIG, type CairnConfig } from '@cairn/config';
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
