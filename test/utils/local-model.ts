import { join } from 'node:path';
import { DEFAULT_MODELS_DIR } from '@cairn/config';

/** Where the test set-up (test/global-setup.ts) fetches the local embedding model. */
export const TEST_MODELS_DIR = join(__dirname, '..', '..', DEFAULT_MODELS_DIR);

/** Configuration overrides that run an app with the local embedding model. */
export function localModelEnv(): Record<string, string> {
  return { EMBEDDING_PROVIDER: 'local', EMBEDDING_MODELS_DIR: TEST_MODELS_DIR };
}
