import { join } from 'node:path';

/** Where the test set-up (test/global-setup.ts) fetches the local embedding model. */
export const TEST_MODELS_DIR = join(__dirname, '..', '..', '.cairn', 'models');

/** Configuration overrides that run an app with the local embedding model. */
export function localModelEnv(): Record<string, string> {
  return { EMBEDDING_PROVIDER: 'local', EMBEDDING_MODELS_DIR: TEST_MODELS_DIR };
}
