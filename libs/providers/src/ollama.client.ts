import { z } from 'zod';
import { JsonHttp } from './http-json';
import { type ChatMessage, type ModelCatalogClient, modelNameMatches } from './model-client';

export interface OllamaClientOptions {
  readonly url: string;
  /** How long Ollama keeps the model loaded after a call, e.g. `5m`, `1h`, `300`, `-1`. */
  readonly keepAlive: string;
  readonly timeoutMs: number;
}

export interface OllamaChatRequest {
  readonly model: string;
  readonly messages: readonly ChatMessage[];
  readonly maxTokens: number;
  readonly json?: boolean;
  /** Sampling temperature; the model's default when absent. */
  readonly temperature?: number;
}

const embedResponse = z.object({ embeddings: z.array(z.array(z.number())) });
const chatResponse = z.object({ message: z.object({ content: z.string() }) });
const tagsResponse = z.object({
  models: z.array(z.object({ name: z.string(), model: z.string().optional() })),
});

/**
 * Ollama's native API (`/api/embed`, `/api/chat`, `/api/tags`). Holds no state besides its
 * settings, so one instance serves the embedder, the generator and the readiness check.
 */
export class OllamaClient implements ModelCatalogClient {
  readonly provider = 'ollama' as const;
  readonly label = 'Ollama';
  private readonly http: JsonHttp;
  private readonly keepAlive: string | number;

  constructor(options: OllamaClientOptions) {
    this.http = new JsonHttp({ baseUrl: options.url, label: this.label, timeoutMs: options.timeoutMs });
    // Ollama reads a bare number as seconds but a string as a Go duration, where "300" and
    // "-1" are invalid: send plain integers as numbers.
    this.keepAlive = /^-?\d+$/.test(options.keepAlive) ? Number(options.keepAlive) : options.keepAlive;
  }

  get where(): string {
    return this.http.where;
  }

  /** One vector per input, in input order. `truncate` lets over-long texts embed rather than fail. */
  async embed(model: string, input: readonly string[], signal?: AbortSignal): Promise<number[][]> {
    const answer = await this.http.request({
      method: 'POST',
      path: '/api/embed',
      body: { model, input, keep_alive: this.keepAlive, truncate: true },
      schema: embedResponse,
      signal,
      model,
    });
    return answer.embeddings;
  }

  async chat(request: OllamaChatRequest, signal?: AbortSignal): Promise<string> {
    const answer = await this.http.request({
      method: 'POST',
      path: '/api/chat',
      body: {
        model: request.model,
        messages: request.messages,
        stream: false,
        ...(request.json ? { format: 'json' } : {}),
        keep_alive: this.keepAlive,
        options: {
          num_predict: request.maxTokens,
          ...(request.temperature === undefined ? {} : { temperature: request.temperature }),
        },
      },
      schema: chatResponse,
      signal,
      model: request.model,
    });
    return answer.message.content;
  }

  async listModels(signal?: AbortSignal, timeoutMs?: number): Promise<string[]> {
    const answer = await this.http.request({
      method: 'GET',
      path: '/api/tags',
      schema: tagsResponse,
      signal,
      timeoutMs,
    });
    return answer.models.flatMap((entry) => (entry.model ? [entry.name, entry.model] : [entry.name]));
  }

  async hasModel(model: string, signal?: AbortSignal, timeoutMs?: number): Promise<boolean> {
    return modelNameMatches(model, await this.listModels(signal, timeoutMs));
  }
}
