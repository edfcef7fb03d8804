import { type TestingModule } from '@nestjs/testing';
import { startWorkerContext, testConfig, type TestClient, type TestResponse, testRedisUrl } from '@cairn/testing';
import { WorkerModule } from '@cairn/worker-app';
import { DataSource } from 'typeorm';
import { type ApiHarness, startApi } from './api-harness';
import { memoryWorld, type MemoryWorld } from './memory-fixtures';

/**
 * The api and the real worker app (BullMQ consumers included) on one database and one queue
 * prefix, plus a tenant with a token of every role: the summaries and extraction pipeline
 * end to end. `workerEnv` configures the worker (CHAT_PROVIDER, OLLAMA_URL, JOB_ATTEMPTS…).
 */
export interface Pipeline {
  readonly api: ApiHarness;
  readonly worker: TestingModule;
  readonly w: MemoryWorld;
  sql<T = any>(query: string, params?: unknown[]): Promise<T[]>;
  close(): Promise<void>;
}

export async function startPipeline(workerEnv: Record<string, string> = {}): Promise<Pipeline> {
  const api = await startApi();
  const w = await memoryWorld(api);
  const config = testConfig(
    api.database.url,
    testRedisUrl(),
    { QUEUE_PREFIX: api.config.queues.prefix, JOB_BACKOFF_MS: '100', ...workerEnv },
    'worker',
  );
  let worker: TestingModule;
  try {
    worker = await startWorkerContext(WorkerModule.register(config));
  } catch (error) {
    // Without this, a worker that refuses to boot leaves the api open and jest hanging.
    await api.close();
    throw error;
  }
  return {
    api,
    worker,
    w,
    sql: (query, params = []) =>
      api.app.get(DataSource).query(query.replaceAll('{schema}', `"${w.tenant.schema}"`), params),
    close: async () => {
      await worker.close();
      await api.close();
    },
  };
}

/** Polls `url` until `done(response)` holds; returns the last response either way. */
export async function pollUntil(
  client: TestClient,
  url: string,
  done: (response: TestResponse) => boolean,
  timeoutMs = 20_000,
): Promise<TestResponse> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const response = await client.get(url);
    if (done(response) || Date.now() > deadline) return response;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

export const fileUrl = (project: string, path?: string) =>
  `/v1/projects/${project}/files/summary${path === undefined ? '' : `?path=${encodeURIComponent(path)}`}`;

export const requestUrl = (project: string, id: string) => `/v1/projects/${project}/requests/${id}`;

/** The summary of `path` once its newest version is ready (or failed). */
export function waitForFile(client: TestClient, project: string, path: string): Promise<TestResponse> {
  return pollUntil(
    client,
    fileUrl(project, path),
    (response) => response.status === 200 && response.body.status !== 'pending' && !response.body.stale,
  );
}

/** The generation request once it is no longer pending. */
export function waitForRequest(client: TestClient, project: string, id: string): Promise<TestResponse> {
  return pollUntil(
    client,
    requestUrl(project, id),
    (response) => response.status === 200 && response.body.status !== 'pending',
  );
}
