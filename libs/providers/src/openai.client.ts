import { z } from 'zod';
import { JsonHttp } from './http-json';
import { type ChatMessage, type ModelCatalogClient, modelNameMatches } from './model-client';
import { ProviderError } from './provider-error';

export interface OpenAiClientOptions {
  /** Up to and including the version segment, e.g. `http://vllm:8000/v1`. */
  readonly baseUrl: string;
  readonly apiKey?: string;
  readonly timeoutMs: number;
}

export interface OpenAiChatRequest {
  readonly model: string;
  readonly messages: readonly ChatMessage[];
  readonly maxTokens: number;
  readonly json?: boolean;
  /** Sampling temperature; the server's default when absent. */
  readonly temperature?: number;
}

const embeddingsResponse = z.object({
  data: z.array(z.object({ index: z.number().int().min(0), embedding: z.array(z.number()) })),
});
const chatResponse = z.object({
  choices: z.array(z.object({ message: z.object({ content: z.string() }) })).min(1),
});
const modelsResponse = z.object({ data: z.array(z.object({ id: z.string() })) });

/**
 * Any OpenAI-compatible server: vLLM, TEI, LiteLLM, Ollama's `/v1`. The bearer key is sent
 * only when configured and never appears in messages.
 */
export class OpenAiClient implements ModelCatalogClient {
  readonly provider = 'openai' as const;
  readonly label = 'OpenAI-compatible server';
  private readonly http: JsonHttp;

  constructor(options: OpenAiClientOptions) {
    this.http = new JsonHttp({
      baseUrl: options.baseUrl,
      label: this.label,
      timeoutMs: options.timeoutMs,
      headers: options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {},
    });
  }

  get where(): string {
    return this.http.where;
  }

  /** One vector per input, in input order: the answer's `index`, not its order, decides. */
  async embed(model: string, input: readonly string[], signal?: AbortSignal): Promise<number[][]> {
    const answer = await this.http.request({
      method: 'POST',
      path: '/embeddings',
      body: { model, input },
      schema: embeddingsResponse,
      signal,
      model,
    });
    const vectors = new Array<number[] | undefined>(input.length);
    for (const item of answer.data) {
      if (item.index >= input.length || vectors[item.index] !== undefined) {
        throw new ProviderError(
          'bad_response',
          `${this.label} /embeddings: index ${item.index} is out of range or repeated`,
        );
      }
      vectors[item.index] = item.embedding;
    }
    if (answer.data.length !== input.length) {
      throw new ProviderError(
        'bad_response',
        `${this.label} /embeddings: ${answer.data.length} vectors for ${input.length} inputs`,
      );
    }
    return vectors as number[][];
  }

  async chat(request: OpenAiChatRequest, signal?: AbortSignal): Promise<string> {
    const answer = await this.http.request({
      method: 'POST',
      path: '/chat/completions',
      body: {
        model: request.model,
        messages: request.messages,
        max_tokens: request.maxTokens,
        ...(request.temperature === undefined ? {} : { temperature: request.temperature }),
        ...(request.json ? { response_format: { type: 'json_object' } } : {}),
      },
      schema: chatResponse,
      signal,
      model: request.model,
    });
    return answer.choices[0]?.message.content ?? '';
  }

  async listModels(signal?: AbortSignal, timeoutMs?: number): Promise<string[]> {
    const answer = await this.http.request({
      method: 'GET',
      path: '/models',
      schema: modelsResponse,
      signal,
      timeoutMs,
    });
    return answer.data.map((entry) => entry.id);
  }

  async hasModel(model: string, signal?: AbortSignal, timeoutMs?: number): Promise<boolean> {
    return modelNameMatches(model, await this.listModels(signal, timeoutMs));
  }
}
