import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Tokenizer } from '@huggingface/tokenizers';
import { type Embedder, type EmbeddingModel } from './embedding-model';
import { type LocalModelDefinition, type Pooling, localModel } from './local-model';
import { OnnxThread } from './onnx-thread';

export interface LocalEmbedderOptions {
  /** The models directory (`EMBEDDING_MODELS_DIR`); the model lives in its definition's folder. */
  readonly modelsDir: string;
  /** EMBEDDING_MODEL: a name in the catalogue (LOCAL_MODELS); unset, the default model. */
  readonly model?: string;
  /** Threads ONNX Runtime uses inside one inference (`EMBEDDING_THREADS`). */
  readonly threads: number;
  /** Texts per inference (at most LOCAL_MAX_BATCH). */
  readonly batchSize: number;
}

/**
 * Texts per inference at most, whatever EMBEDDING_BATCH_SIZE asks: a batch of 32 texts of 256
 * word pieces takes ~1.3 GB of activations on top of the process (measured), 8 take ~290 MB and
 * run as fast per text on a CPU. Larger requests are split into inferences of this size.
 */
export const LOCAL_MAX_BATCH = 8;

/** The model files are missing or not the pinned ones: `npm run models` fetches them. */
export class LocalModelUnavailableError extends Error {}

/**
 * A catalogue model in the process (ONNX Runtime, CPU): word pieces up to its window per text,
 * pooled as the model was trained (all-MiniLM-L6-v2: the token vectors averaged over the
 * attention mask; bge-small-en-v1.5: the [CLS] token's vector), then scaled to unit length.
 * Texts are batched and padded to the longest text of their batch. The inference itself runs on
 * a thread of its own (OnnxThread), so the event loop serves requests meanwhile.
 */
export class LocalEmbedder implements Embedder {
  readonly model: EmbeddingModel;

  private constructor(
    readonly definition: LocalModelDefinition,
    private readonly session: OnnxThread,
    private readonly tokenizer: Tokenizer,
    private readonly batchSize: number,
  ) {
    this.model = {
      id: definition.id,
      provider: 'local',
      dimensions: definition.dimensions,
      builtIn: false,
      ...(definition.keywordWeight === undefined ? {} : { keywordWeight: definition.keywordWeight }),
    };
  }

  /** Checks the files against their pinned digests, then loads the tokenizer and the model. */
  static async load(options: LocalEmbedderOptions): Promise<LocalEmbedder> {
    const definition = localModel(options.model);
    const folder = join(options.modelsDir, definition.folder);
    await verifyModelFiles(folder, definition);
    const readJson = async (name: string) => JSON.parse(await readFile(join(folder, name), 'utf8')) as object;
    const tokenizerJson = await readJson('tokenizer.json');
    const tokenizerConfig = definition.files.some((file) => file.name === 'tokenizer_config.json')
      ? await readJson('tokenizer_config.json')
      : { ...definition.tokenizerConfig };
    const session = await OnnxThread.start(join(folder, 'model.onnx'), { threads: options.threads });
    return new LocalEmbedder(
      definition,
      session,
      new Tokenizer(tokenizerJson, tokenizerConfig),
      Math.min(LOCAL_MAX_BATCH, definition.maxBatch ?? LOCAL_MAX_BATCH, Math.max(1, options.batchSize)),
    );
  }

  async embed(texts: readonly string[]): Promise<Float32Array[]> {
    const vectors: Float32Array[] = [];
    for (let start = 0; start < texts.length; start += this.batchSize) {
      vectors.push(...(await this.embedBatch(texts.slice(start, start + this.batchSize))));
    }
    return vectors;
  }

  /** A search query's vector: the model's query prefix (if it has one) before the text. */
  async embedQuery(query: string): Promise<Float32Array> {
    const [vector] = await this.embed([`${this.definition.queryPrefix ?? ''}${query}`]);
    if (!vector) throw new Error('the local model returned no vector for the query');
    return vector;
  }

  /** Word-piece ids with [CLS] and [SEP], at most the model's maxTokens (the [SEP] kept). */
  tokenize(text: string): number[] {
    const ids = this.tokenizer.encode(text).ids;
    const max = this.definition.maxTokens;
    if (ids.length <= max) return ids;
    return [...ids.slice(0, max - 1), ids[ids.length - 1]];
  }

  async release(): Promise<void> {
    await this.session.release();
  }

  private async embedBatch(texts: readonly string[]): Promise<Float32Array[]> {
    const encoded = texts.map((text) => this.tokenize(text));
    const width = Math.max(...encoded.map((ids) => ids.length));
    const ids = new BigInt64Array(texts.length * width);
    const mask = new BigInt64Array(texts.length * width);
    encoded.forEach((row, r) =>
      row.forEach((id, c) => {
        ids[r * width + c] = BigInt(id);
        mask[r * width + c] = 1n;
      }),
    );
    const dims = [texts.length, width];
    const hidden = await this.session.run(
      {
        input_ids: { data: ids, dims },
        attention_mask: { data: mask, dims },
        token_type_ids: { data: new BigInt64Array(texts.length * width), dims },
      },
      'last_hidden_state',
    );
    const size = this.definition.dimensions;
    return encoded.map((row, r) => pooled(this.definition.pooling, hidden, r * width * size, row.length, size));
  }
}

/**
 * One text's vector from its token vectors (`tokens` of them, `size` wide, from `offset` in
 * `hidden`), scaled to unit length: `mean` averages them (padding beyond `tokens` ignored),
 * `cls` takes the first ([CLS]) token's.
 */
export function pooled(
  pooling: Pooling,
  hidden: Float32Array,
  offset: number,
  tokens: number,
  size: number,
): Float32Array {
  const sum = new Float64Array(size);
  const count = pooling === 'cls' ? Math.min(1, tokens) : tokens;
  for (let t = 0; t < count; t += 1) {
    const base = offset + t * size;
    for (let d = 0; d < size; d += 1) sum[d] += hidden[base + d];
  }
  let norm = 0;
  for (let d = 0; d < size; d += 1) norm += sum[d] * sum[d];
  norm = Math.sqrt(norm);
  if (!(norm > 0)) throw new Error('the local model returned a zero vector');
  return Float32Array.from(sum, (value) => value / norm);
}

/** Every pinned file of the model (default: the default model) present with its digest; names what is wrong and how to fix it. */
export async function verifyModelFiles(folder: string, model: LocalModelDefinition = localModel()): Promise<void> {
  for (const file of model.files) {
    const path = join(folder, file.name);
    let digest: string;
    try {
      digest = await sha256File(path);
    } catch {
      throw new LocalModelUnavailableError(`${path} is missing: run \`npm run models\` to fetch the local model`);
    }
    if (digest !== file.sha256) {
      throw new LocalModelUnavailableError(
        `${path} is not the pinned file (sha256 ${digest}): run \`npm run models\` to fetch it again`,
      );
    }
  }
}

export function sha256File(path: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const hash = createHash('sha256');
    createReadStream(path)
      .on('error', reject)
      .on('data', (chunk) => hash.update(chunk))
      .on('end', () => resolve(hash.digest('hex')));
  });
}
