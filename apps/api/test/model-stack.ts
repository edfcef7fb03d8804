import { type TestingModule } from '@nestjs/testing';
import {
  type FakeModelServer,
  type FakeModelServerOptions,
  startFakeModelServer,
  startWorkerContext,
  testConfig,
  testRedisUrl,
} from '@cairn/testing';
import { WorkerModule } from '@cairn/worker-app';
import { type ApiHarness, startApi } from './api-harness';

/** The model id vectors carry when embedded through the stack's Ollama model. */
export const OLLAMA_MODEL_ID = 'ollama-nomic-embed-text-64';

export interface ModelStack {
  readonly server: FakeModelServer;
  readonly api: ApiHarness;
  readonly worker: TestingModule;
  /** The provider settings both apps were given. */
  readonly env: Record<string, string>;
  close(): Promise<void>;
}

/**
 * The production provider path over real HTTP: an in-test Ollama-speaking model server
 * (64-dimension vectors of `nomic-embed-text`), and the api and the real worker app
 * configured for it with the same database, queue prefix and `env` extras.
 */
export async function startModelStack(
  options: { server?: FakeModelServerOptions; env?: Record<string, string> } = {},
): Promise<ModelStack> {
  const server = await startFakeModelServer({ dimensions: 64, models: ['nomic-embed-text:latest'], ...options.server });
  const env = {
    EMBEDDING_PROVIDER: 'ollama',
    EMBEDDING_MODEL: 'nomic-embed-text',
    EMBEDDING_DIMENSIONS: '64',
    OLLAMA_URL: server.url,
    ...options.env,
  };
  const api = await startApi(env);
  const config = testConfig(
    api.database.url,
    testRedisUrl(),
    { ...env, QUEUE_PREFIX: api.config.queues.prefix },
    'worker',
  );
  const worker = await startWorkerContext(WorkerModule.register(config));
  return {
    server,
    api,
    worker,
    env,
    close: async () => {
      await worker.close();
      await api.close();
      await server.close();
    },
  };
}
