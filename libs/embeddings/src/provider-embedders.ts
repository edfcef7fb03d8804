import { createHash } from 'node:crypto';
import { type OllamaClient, type OpenAiClient, ProviderError } from '@cairn/providers';
import { assertSafeModelId, type Embedder, type EmbeddingModel } from './embedding-model';

export interface ProviderEmbedderOptions {
  /** The provider's model name, e.g. `nomic-embed-text` or `BAAI/bge-small-en-v1.5`. */
  readonly model: string;
  readonly dimensions: number;
  /** Texts per provider call. */
  readonly batchSize: number;
}

/** The part of a client an embedder uses: one vector per input, in input order. */
interface EmbeddingClient {
  embed(model: string, input: readonly string[], signal?: AbortSignal): Promise<number[][]>;
}

/** Room under `assertSafeModelId`'s 100 characters for the provider prefix and dimension suffix. */
const MAX_NAME_CHARS = 64;

/**
 * The id stored with every vector: `${provider}-${name}-${dimensions}`, lower case, anything
 * outside `[a-z0-9._-]` replaced by `-`. It names provider, model and size, so vectors from
 * another server kind or another dimension setting are never compared with these. A name too
 * long to fit keeps its start plus a digest of the full name, so two long names never collide.
 */
export function providerModelId(provider: 'ollama' | 'openai', name: string, dimensions: number): string {
  let slug = name.toLowerCase().replace(/[^a-z0-9._-]/g, '-');
  if (slug.length > MAX_NAME_CHARS) {
    const digest = createHash('sha256').update(name).digest('hex').slice(0, 8);
    slug = `${slug.slice(0, MAX_NAME_CHARS - 9)}-${digest}`;
  }
  return assertSafeModelId(`${provider}-${slug || 'model'}-${Math.trunc(dimensions)}`);
}

/**
 * Batches texts per provider call, then checks each vector (exact dimension, finite, not
 * zero) and L2-normalises it: cosine search and the HNSW index assume unit vectors, and a
 * server that silently changed models must fail loudly rather than store garbage.
 */
abstract class ProviderEmbedder implements Embedder {
  readonly model: EmbeddingModel;

  protected constructor(
    provider: 'ollama' | 'openai',
    private readonly client: EmbeddingClient,
    private readonly options: ProviderEmbedderOptions,
  ) {
    this.model = {
      id: providerModelId(provider, options.model, options.dimensions),
      provider,
      dimensions: options.dimensions,
      builtIn: false,
    };
  }

  async embed(texts: readonly string[]): Promise<Float32Array[]> {
    const vectors: Float32Array[] = [];
    const size = Math.max(1, this.options.batchSize);
    for (let start = 0; start < texts.length; start += size) {
      const batch = texts.slice(start, start + size);
      const answer = await this.client.embed(this.options.model, batch);
      if (answer.length !== batch.length) {
        throw new ProviderError('bad_response', `${this.model.id}: ${answer.length} vectors for ${batch.length} texts`);
      }
      for (const vector of answer) vectors.push(this.checked(vector));
    }
    return vectors;
  }

  private checked(vector: readonly number[]): Float32Array {
    const { dimensions, id } = this.model;
    if (vector.length !== dimensions) {
      throw new ProviderError(
        'bad_response',
        `${id}: a vector has ${vector.length} dimensions, expected ${dimensions} (EMBEDDING_DIMENSIONS)`,
      );
    }
    let norm = 0;
    for (const value of vector) {
      if (!Number.isFinite(value))
        throw new ProviderError('bad_response', `${id}: a vector has a non-finite component`);
      norm += value * value;
    }
    if (norm === 0 || !Number.isFinite(norm)) {
      throw new ProviderError('bad_response', `${id}: a vector has no direction (zero or overflowing norm)`);
    }
    const scale = 1 / Math.sqrt(norm);
    const unit = new Float32Array(dimensions);
    for (let i = 0; i < dimensions; i += 1) unit[i] = (vector[i] ?? 0) * scale;
    return unit;
  }
}

/** Embeddings through Ollama's `/api/embed`. */
export class OllamaEmbedder extends ProviderEmbedder {
  constructor(client: OllamaClient, options: ProviderEmbedderOptions) {
    super('ollama', client, options);
  }
}

/** Embeddings through an OpenAI-compatible `/embeddings` (vLLM, TEI, LiteLLM, Ollama's `/v1`). */
export class OpenAiEmbedder extends ProviderEmbedder {
  constructor(client: OpenAiClient, options: ProviderEmbedderOptions) {
    super('openai', client, options);
  }
}
