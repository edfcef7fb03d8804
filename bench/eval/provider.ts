import { join, resolve } from 'node:path';
import { DEFAULT_MODELS_DIR } from '@cairn/config';
import { localModel, verifyModelFiles } from '@cairn/embeddings';
import { type RerankApi } from '@cairn/providers';

export const PROVIDERS = ['hash', 'local'] as const;
export type Provider = (typeof PROVIDERS)[number];

/** The environment's EMBEDDING_PROVIDER when it names one of the two (as `npm run bench` reads it), else hash. */
export function defaultProvider(): Provider {
  return PROVIDERS.find((name) => name === process.env.EMBEDDING_PROVIDER) ?? 'hash';
}

/**
 * The settings that select the embedder; for `local`, checked before any service starts.
 * `model` names a local model of the catalogue (EMBEDDING_MODEL; default the default model).
 */
export async function providerEnv(provider: Provider, root: string, model?: string): Promise<Record<string, string>> {
  if (provider === 'hash') return { EMBEDDING_PROVIDER: 'hash' };
  const modelsDir = resolve(root, process.env.EMBEDDING_MODELS_DIR ?? DEFAULT_MODELS_DIR);
  const definition = localModel(model);
  try {
    await verifyModelFiles(join(modelsDir, definition.folder), definition);
  } catch (error) {
    const problem = error instanceof Error ? error.message : String(error);
    // The embedder's own message usually names the fix already; say it once either way.
    const fix = problem.includes('npm run models') ? '' : '; fetch it with `npm run models ${definition.name}`';
    throw new Error(
      `--provider local needs the local embedding model in ${modelsDir}: ${problem}${fix} ` +
        '(or point EMBEDDING_MODELS_DIR at a folder that has it)',
      { cause: error },
    );
  }
  return { EMBEDDING_PROVIDER: 'local', EMBEDDING_MODELS_DIR: modelsDir, EMBEDDING_MODEL: definition.name };
}

/** `--reranker` and its companions: the reranker the eval's reranked rows go through. */
export interface RerankerArgs {
  readonly url: string;
  /** RERANK_MODEL; TEI serves one model and is sent no name, so there it only labels the results. */
  readonly model?: string;
  readonly api: RerankApi;
  readonly candidates?: number;
  readonly batchSize?: number;
  readonly timeoutMs?: number;
}

/** The label a TEI reranker's results carry when `--reranker-model` does not name its model. */
export const TEI_DEFAULT_LABEL = 'tei';

/**
 * The settings for the reranked app (RERANK_*). The app's own validation (loadConfig) checks
 * them; the model is required for the `cohere` API, which sends it with every request.
 */
export function rerankerEnv(reranker: RerankerArgs): Record<string, string> {
  const model = reranker.model ?? (reranker.api === 'tei' ? TEI_DEFAULT_LABEL : undefined);
  if (!model) throw new Error('--reranker needs --reranker-model NAME (the cohere API sends it with every request)');
  return {
    RERANK_URL: reranker.url,
    RERANK_API: reranker.api,
    RERANK_MODEL: model,
    ...(reranker.candidates === undefined ? {} : { RERANK_CANDIDATES: String(reranker.candidates) }),
    ...(reranker.batchSize === undefined ? {} : { RERANK_BATCH_SIZE: String(reranker.batchSize) }),
    ...(reranker.timeoutMs === undefined ? {} : { RERANK_TIMEOUT_MS: String(reranker.timeoutMs) }),
    // A key, if the server wants one, comes from the environment: never from the command line.
    ...(process.env.RERANK_API_KEY ? { RERANK_API_KEY: process.env.RERANK_API_KEY } : {}),
  };
}

export const REWRITE_PROVIDERS = ['ollama', 'openai'] as const;

/** `--rewrite` and its companions: the chat model the eval's `<mode>+rewrite` rows ask (QUERY_REWRITE=on). */
export interface RewriteArgs {
  /** Ollama's base URL, or an OpenAI-compatible server's with its `/v1`. */
  readonly url: string;
  readonly model?: string;
  readonly provider: (typeof REWRITE_PROVIDERS)[number];
  readonly timeoutMs?: number;
}

/** The settings for the rewriting app (CHAT_*, QUERY_REWRITE*); the app's own validation checks them. */
export function rewriteEnv(rewrite: RewriteArgs): Record<string, string> {
  if (!rewrite.model) throw new Error('--rewrite needs --rewrite-model NAME');
  return {
    CHAT_PROVIDER: rewrite.provider,
    CHAT_MODEL: rewrite.model,
    ...(rewrite.provider === 'ollama' ? { OLLAMA_URL: rewrite.url } : { OPENAI_BASE_URL: rewrite.url }),
    QUERY_REWRITE: 'on',
    ...(rewrite.timeoutMs === undefined ? {} : { QUERY_REWRITE_TIMEOUT_MS: String(rewrite.timeoutMs) }),
    // A key, if the server wants one, comes from the environment: never from the command line.
    ...(rewrite.provider === 'openai' && process.env.OPENAI_API_KEY
      ? { OPENAI_API_KEY: process.env.OPENAI_API_KEY }
      : {}),
  };
}
