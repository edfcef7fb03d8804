import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Tokenizer } from '@huggingface/tokenizers';
import { InferenceSession, Tensor } from 'onnxruntime-node';
import { type Embedder, type EmbeddingModel } from './embedding-model';
import { LOCAL_MODEL } from './local-model';

export interface LocalEmbedderOptions {
  /** The models directory (`EMBEDDING_MODELS_DIR`); the model lives in its LOCAL_MODEL.folder. */
  readonly modelsDir: string;
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
 * all-MiniLM-L6-v2 in the process (ONNX Runtime, CPU): word pieces up to 256 per text, the
 * token vectors averaged over the attention mask and scaled to unit length, as the model was
 * trained (sentence-transformers' mean pooling and Normalize modules). Texts are batched and
 * padded to the longest text of their batch.
 */
export class LocalEmbedder implements Embedder {
  readonly model: EmbeddingModel = {
    id: LOCAL_MODEL.id,
    provider: 'local',
    dimensions: LOCAL_MODEL.dimensions,
    builtIn: false,
  };

  private constructor(
    private readonly session: InferenceSession,
    private readonly tokenizer: Tokenizer,
    private readonly batchSize: number,
  ) {}

  /** Checks the files against their pinned digests, then loads the tokenizer and the model. */
  static async load(options: LocalEmbedderOptions): Promise<LocalEmbedder> {
    const folder = join(options.modelsDir, LOCAL_MODEL.folder);
    await verifyModelFiles(folder);
    const [tokenizerJson, tokenizerConfig] = await Promise.all(
      ['tokenizer.json', 'tokenizer_config.json'].map(
        async (name) => JSON.parse(await readFile(join(folder, name), 'utf8')) as object,
      ),
    );
    const session = await InferenceSession.create(join(folder, 'model.onnx'), {
      executionProviders: ['cpu'],
      intraOpNumThreads: options.threads,
      interOpNumThreads: 1,
      graphOptimizationLevel: 'all',
    });
    return new LocalEmbedder(
      session,
      new Tokenizer(tokenizerJson, tokenizerConfig),
      Math.min(LOCAL_MAX_BATCH, Math.max(1, options.batchSize)),
    );
  }

  async embed(texts: readonly string[]): Promise<Float32Array[]> {
    const vectors: Float32Array[] = [];
    for (let start = 0; start < texts.length; start += this.batchSize) {
      vectors.push(...(await this.embedBatch(texts.slice(start, start + this.batchSize))));
    }
    return vectors;
  }

  /** Word-piece ids with [CLS] and [SEP], at most LOCAL_MODEL.maxTokens (the [SEP] kept). */
  tokenize(text: string): number[] {
    const ids = this.tokenizer.encode(text).ids;
    if (ids.length <= LOCAL_MODEL.maxTokens) return ids;
    return [...ids.slice(0, LOCAL_MODEL.maxTokens - 1), ids[ids.length - 1]];
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
    const shape = [texts.length, width];
    const output = await this.session.run({
      input_ids: new Tensor('int64', ids, shape),
      attention_mask: new Tensor('int64', mask, shape),
      token_type_ids: new Tensor('int64', new BigInt64Array(texts.length * width), shape),
    });
    const hidden = output.last_hidden_state.data as Float32Array;
    const size = LOCAL_MODEL.dimensions;
    return encoded.map((row, r) => meanPooled(hidden, r * width * size, row.length, size));
  }
}

/** The mean of the first `tokens` token vectors of one text, scaled to unit length. */
function meanPooled(hidden: Float32Array, offset: number, tokens: number, size: number): Float32Array {
  const sum = new Float64Array(size);
  for (let t = 0; t < tokens; t += 1) {
    const base = offset + t * size;
    for (let d = 0; d < size; d += 1) sum[d] += hidden[base + d];
  }
  let norm = 0;
  for (let d = 0; d < size; d += 1) norm += sum[d] * sum[d];
  norm = Math.sqrt(norm);
  if (!(norm > 0)) throw new Error('the local model returned a zero vector');
  return Float32Array.from(sum, (value) => value / norm);
}

/** Every pinned file present with its digest; names what is wrong and how to fix it. */
export async function verifyModelFiles(folder: string): Promise<void> {
  for (const file of LOCAL_MODEL.files) {
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
