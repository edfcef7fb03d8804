import { join, resolve } from 'node:path';
import { DEFAULT_MODELS_DIR } from '@cairn/config';
import { LOCAL_MODEL, verifyModelFiles } from '@cairn/embeddings';

export const PROVIDERS = ['hash', 'local'] as const;
export type Provider = (typeof PROVIDERS)[number];

/** The environment's EMBEDDING_PROVIDER when it names one of the two (as `npm run bench` reads it), else hash. */
export function defaultProvider(): Provider {
  return PROVIDERS.find((name) => name === process.env.EMBEDDING_PROVIDER) ?? 'hash';
}

/** The settings that select the embedder; for `local`, checked before any service starts. */
export async function providerEnv(provider: Provider, root: string): Promise<Record<string, string>> {
  if (provider === 'hash') return { EMBEDDING_PROVIDER: 'hash' };
  const modelsDir = resolve(root, process.env.EMBEDDING_MODELS_DIR ?? DEFAULT_MODELS_DIR);
  try {
    await verifyModelFiles(join(modelsDir, LOCAL_MODEL.folder));
  } catch (error) {
    const problem = error instanceof Error ? error.message : String(error);
    // The embedder's own message usually names the fix already; say it once either way.
    const fix = problem.includes('npm run models') ? '' : '; fetch it with `npm run models`';
    throw new Error(
      `--provider local needs the local embedding model in ${modelsDir}: ${problem}${fix} ` +
        '(or point EMBEDDING_MODELS_DIR at a folder that has it)',
      { cause: error },
    );
  }
  return { EMBEDDING_PROVIDER: 'local', EMBEDDING_MODELS_DIR: modelsDir };
}
