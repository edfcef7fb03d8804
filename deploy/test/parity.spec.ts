import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { environmentSchema, requiredByApp } from '@cairn/config';
import {
  createTestDatabase,
  startFakeModelServer,
  TEST_MODELS_DIR,
  type TestDatabase,
  testRedisUrl,
} from '@cairn/testing';
import { APP_ENTRY, ChildApp, childEnvironment, freePort, MIGRATE_ENTRY, PORT_VARIABLE } from '@cairn/process-harness';
import { CAIRN_APPS, cairnWorkloads, containerEnvironment } from './lib/environment';
import { type K8sObject, renderChart, valueSets } from './lib/manifests';

/**
 * The chart and the apps agree on configuration: every variable the chart sets is one the apps
 * read (environmentSchema), every variable an app requires is set, every variable the apps read
 * can be set; and the apps boot and become ready with exactly the rendered environment.
 */

const SCHEMA_KEYS = new Set(Object.keys(environmentSchema.shape));
const sets = valueSets();

describe.each(Object.keys(sets))('config parity with the %s values', (name) => {
  const objects = renderChart({ valuesFiles: sets[name] });
  const workloads = cairnWorkloads(objects);

  it.each([...CAIRN_APPS, 'migrate' as const])('%s: only variables the apps read, all it requires', (app) => {
    const { names } = containerEnvironment(objects, workloads[app], { namesOnly: true });
    expect([...names].filter((n) => !SCHEMA_KEYS.has(n))).toEqual([]);
    expect(requiredByApp[app].filter((n) => !names.has(n))).toEqual([]);
  });
});

describe('config coverage', () => {
  it('every variable of environmentSchema can be set through the chart (everything values)', () => {
    const objects = renderChart({ valuesFiles: sets.everything });
    const workloads = cairnWorkloads(objects);
    const set = new Set(
      CAIRN_APPS.flatMap((app) => [...containerEnvironment(objects, workloads[app], { namesOnly: true }).names]),
    );
    expect([...SCHEMA_KEYS].filter((k) => !set.has(k)).sort()).toEqual([]);
  });

  it('flags a variable the apps do not read', () => {
    const objects = renderChart({
      valuesFiles: sets.minimal,
      set: { 'api.extraEnv[0].name': 'LOG_LEVELL', 'api.extraEnv[0].value': 'x' },
    });
    const { names } = containerEnvironment(objects, cairnWorkloads(objects).api);
    expect([...names].filter((n) => !SCHEMA_KEYS.has(n))).toEqual(['LOG_LEVELL']);
  });
});

/** Starts one built app with exactly `env`, except its listen address and port (a pod has its own). */
async function bootUntilReady(app: (typeof CAIRN_APPS)[number], env: Record<string, string>) {
  const port = await freePort();
  const child = new ChildApp(
    app,
    APP_ENTRY[app],
    childEnvironment({ ...env, HOST: '127.0.0.1', [PORT_VARIABLE[app]]: String(port) }),
  );
  const deadline = Date.now() + 30_000;
  let last = 'no answer';
  let ready: string | undefined;
  try {
    while (ready === undefined && Date.now() < deadline) {
      if (!child.alive) throw new Error(`${app} exited: ${JSON.stringify(child.exitStatus)}\n${child.output()}`);
      try {
        const response = await fetch(`http://127.0.0.1:${port}/readyz`, { signal: AbortSignal.timeout(2_000) });
        const body = await response.text();
        last = `${response.status} ${body}`;
        if (response.status === 200) ready = body;
      } catch (error) {
        last = String(error);
      }
      if (ready === undefined) await new Promise((wake) => setTimeout(wake, 200));
    }
    if (ready === undefined) throw new Error(`${app} not ready within 30 s (last: ${last})\n${child.output()}`);
    // With the embedder the rendered environment names (the local model is loaded before ready).
    const { checks } = JSON.parse(ready) as { checks: { embedder?: { info?: { provider?: string } } } };
    expect(checks.embedder?.info?.provider).toBe(env.EMBEDDING_PROVIDER);
    await expectServing(app, port);
  } finally {
    child.signal('SIGTERM');
    await child.waitForExit(30_000).catch(() => child.kill());
  }
}

/** Beyond ready: the gateway serves MCP with that environment (and challenges a missing token). */
async function expectServing(app: (typeof CAIRN_APPS)[number], port: number): Promise<void> {
  if (app !== 'mcp-gateway') return;
  const response = await fetch(`http://127.0.0.1:${port}/mcp`, {
    method: 'POST',
    headers: { Accept: 'application/json, text/event-stream', 'Content-Type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
  });
  expect(response.status).toBe(401);
  expect(response.headers.get('www-authenticate')).toContain('resource_metadata=');
}

describe('the apps boot with the environment the rendered manifests give them', () => {
  let database: TestDatabase;
  let work: string;
  const models: { close: () => Promise<void>; url: string } = { close: () => Promise.resolve(), url: '' };

  beforeAll(async () => {
    database = await createTestDatabase({ migrated: false });
    work = mkdtempSync(join(tmpdir(), 'cairn-boot-'));
    const server = await startFakeModelServer({
      models: ['text-embedding-3-small'],
      dimensions: 1536,
      apiKey: 'sk-boot',
    });
    Object.assign(models, { close: () => server.close(), url: server.url });
  });
  afterAll(async () => {
    await models.close();
    await database?.drop();
    rmSync(work, { recursive: true, force: true });
  });

  /** The Secret an operator creates for the production values (their key names). */
  const operatorSecret = (): K8sObject => ({
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { name: 'cairn-credentials' },
    stringData: {
      'database-url': database.url,
      'redis-url': testRedisUrl(),
      'admin-token': `adm-${randomBytes(32).toString('base64url')}`,
      'master-key': randomBytes(32).toString('base64'),
      'openai-api-key': 'sk-boot',
    },
  });

  it.each([
    ['production (existingSecret, OpenAI-compatible embeddings)', 'production'],
    ['minimal (chart-made Secret, the local model by default)', 'minimal'],
  ])('%s', async (_label, set) => {
    // Only addresses differ from the CI value set: the test PostgreSQL, Redis and model server, and
    // where the local model is (the image has it in /app/models; image.spec boots from that layout).
    const overrides = join(work, `${set}.yaml`);
    writeFileSync(
      overrides,
      JSON.stringify({
        config: { OPENAI_BASE_URL: `${models.url}/v1`, EMBEDDING_MODELS_DIR: TEST_MODELS_DIR },
        secrets: set === 'minimal' ? { databaseUrl: database.url, redisUrl: testRedisUrl() } : {},
      }),
    );
    const rendered = renderChart({ valuesFiles: [...sets[set], overrides] });
    const objects = set === 'production' ? [...rendered, operatorSecret()] : rendered;
    const workloads = cairnWorkloads(objects);

    const migrate = new ChildApp(
      'migrate',
      MIGRATE_ENTRY,
      childEnvironment(containerEnvironment(objects, workloads.migrate).env),
    );
    const migrated = await migrate.waitForExit(60_000);
    expect({ ...migrated, output: migrated.code === 0 ? '' : migrate.output() }).toEqual({
      code: 0,
      signal: null,
      output: '',
    });

    for (const app of CAIRN_APPS) {
      await bootUntilReady(app, containerEnvironment(objects, workloads[app]).env);
    }
  });
});
