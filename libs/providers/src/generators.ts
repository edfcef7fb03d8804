import { type CairnConfig } from '@cairn/config';
import { type GenerationRequest, type Generator, type GeneratorModel } from './generator';
import { type ChatMessage } from './model-client';
import { type OllamaClient } from './ollama.client';
import { type OpenAiClient } from './openai.client';
import { type ProviderClients } from './provider-clients.service';

/** System instructions and the fenced task, as the two messages both protocols take. */
function messages(request: GenerationRequest): ChatMessage[] {
  return [
    { role: 'system', content: request.system },
    { role: 'user', content: request.prompt },
  ];
}

/** Summaries and extraction through Ollama's `/api/chat` (non-streaming). */
export class OllamaGenerator implements Generator {
  readonly model: GeneratorModel;

  constructor(
    private readonly client: OllamaClient,
    name: string,
  ) {
    this.model = { provider: 'ollama', name };
  }

  generate(request: GenerationRequest, signal?: AbortSignal): Promise<string> {
    return this.client.chat(
      {
        model: this.model.name,
        messages: messages(request),
        maxTokens: request.maxTokens,
        json: request.json,
        temperature: request.temperature,
      },
      signal,
    );
  }
}

/** Summaries and extraction through an OpenAI-compatible `/chat/completions`. */
export class OpenAiGenerator implements Generator {
  readonly model: GeneratorModel;

  constructor(
    private readonly client: OpenAiClient,
    name: string,
  ) {
    this.model = { provider: 'openai', name };
  }

  generate(request: GenerationRequest, signal?: AbortSignal): Promise<string> {
    return this.client.chat(
      {
        model: this.model.name,
        messages: messages(request),
        maxTokens: request.maxTokens,
        json: request.json,
        temperature: request.temperature,
      },
      signal,
    );
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
