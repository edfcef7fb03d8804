import { createTestDatabase, type TestDatabase, testRedisUrl } from '@cairn/testing';
import {
  type ChildApp,
  eventually,
  fetchErrorCode,
  generateSecrets,
  http,
  killAllChildren,
  lockTables,
  type ProcessAppName,
  releaseAllLocks,
  type Secrets,
  startApp,
} from './process-harness';

/**
 * SIGTERM drains before it closes (SHUTDOWN_DRAIN_MS): the built apps as real processes report
 * not-ready at once, yet keep answering in-flight and newly arriving requests, on new
 * connections too, until the drain ends; only then is the listener closed. Behind a load
 * balancer this is what lets a replica leave without a refused request (bench/replicas).
 */

/** Long enough that the requests below are certainly answered inside it, even on a loaded machine. */
const DRAIN_MS = 10_000;
const EXIT_TIMEOUT_MS = DRAIN_MS + 20_000;

let database: TestDatabase;
let secrets: Secrets;

beforeAll(async () => {
  database = await createTestDatabase();
  secrets = generateSecrets();
});

afterEach(async () => {
  await killAllChildren();
  await releaseAllLocks();
});

afterAll(async () => {
  await killAllChildren();
  await database?.drop();
});

function appEnv(app: ProcessAppName, drainMs = DRAIN_MS) {
  return {
    DATABASE_URL: database.url,
    REDIS_URL: testRedisUrl(),
    CAIRN_MASTER_KEY: secrets.masterKey,
    CAIRN_ADMIN_TOKEN: app === 'api' ? secrets.adminToken : undefined,
    SHUTDOWN_TIMEOUT_MS: '5000',
    SHUTDOWN_DRAIN_MS: String(drainMs),
  };
}

/** A fresh connection per request: a client that has never talked to this process before. */
const fresh = (url: string, init: RequestInit = {}) =>
  http(url, { ...init, headers: { ...(init.headers as Record<string, string>), connection: 'close' } });

const msgs = (child: ChildApp) => child.logLines().map((line) => line.msg as string);

async function expectRefusedEventually(url: string): Promise<void> {
  await eventually(
    () =>
      fetch(`${url}/healthz`, { headers: { connection: 'close' } }).then(
        () => undefined,
        (error) => (fetchErrorCode(error) === 'ECONNREFUSED' ? true : undefined),
      ),
    EXIT_TIMEOUT_MS,
    'new connections to be refused once the drain is over',
  );
}

describe('SIGTERM drains for SHUTDOWN_DRAIN_MS before closing', () => {
  it('api: /readyz turns 503 at once, the in-flight request completes, new requests are still answered', async () => {
    const api = await startApp('api', appEnv('api'));
    const admin = { authorization: `Bearer ${secrets.adminToken}` };
    // The in-flight request waits on this lock inside PostgreSQL until the test lets it go.
    const lock = await lockTables(database.url, ['cairn.tenants']);
    const inFlight = http(`${api.url}/v1/tenants`, { headers: admin, signal: AbortSignal.timeout(60_000) });
    await lock.waitForWaiting('cairn-api', 1);

    api.process.signal('SIGTERM');
    await api.process.waitForLog((line) => line.msg === 'shutting down');

    const ready = await fresh(`${api.url}/readyz`);
    expect(ready.status).toBe(503);
    expect(ready.body.status).toBe('not_ready');
    // A request that arrives during the drain, on a new connection, is served, and told to
    // reconnect elsewhere next time.
    const arriving = await fresh(`${api.url}/healthz`);
    expect(arriving.status).toBe(200);
    expect(arriving.headers.get('connection')).toBe('close');
    // Still draining: the listener was not closed under these requests.
    expect(msgs(api.process)).not.toContain('closing the listener');

    await lock.release();
    const answered = await inFlight;
    expect(answered.status).toBe(200);
    expect(answered.body.items).toEqual(expect.any(Array));

    await expectRefusedEventually(api.url);
    expect(await api.process.waitForExit(EXIT_TIMEOUT_MS)).toEqual({ code: 0, signal: null });
    const lines = api.process.logLines();
    expect(lines.find((line) => line.msg === 'shutting down')).toMatchObject({ signal: 'SIGTERM', drainMs: DRAIN_MS });
    const order = msgs(api.process).filter((msg) => ['shutting down', 'closing the listener', 'stopped'].includes(msg));
    expect(order).toEqual(['shutting down', 'closing the listener', 'stopped']);
  });

  it('mcp-gateway: drains the same way (not ready, still answering) and then exits 0', async () => {
    const gateway = await startApp('mcp-gateway', appEnv('mcp-gateway'));
    gateway.process.signal('SIGTERM');
    await gateway.process.waitForLog((line) => line.msg === 'shutting down');

    expect((await fresh(`${gateway.url}/readyz`)).status).toBe(503);
    expect((await fresh(`${gateway.url}/healthz`)).status).toBe(200);
    expect(msgs(gateway.process)).not.toContain('closing the listener');

    expect(await gateway.process.waitForExit(EXIT_TIMEOUT_MS)).toEqual({ code: 0, signal: null });
    expect(msgs(gateway.process)).toEqual(expect.arrayContaining(['closing the listener', 'stopped']));
  });

  it('worker: nothing routes requests to it, so it closes without a drain', async () => {
    const worker = await startApp('worker', appEnv('worker'));
    worker.process.signal('SIGTERM');
    expect(await worker.process.waitForExit(EXIT_TIMEOUT_MS)).toEqual({ code: 0, signal: null });
    expect(worker.process.logLines().find((line) => line.msg === 'shutting down')).toMatchObject({ drainMs: 0 });
  });

  it('SHUTDOWN_DRAIN_MS=0 closes the listener at once', async () => {
    const api = await startApp('api', appEnv('api', 0));
    api.process.signal('SIGTERM');
    expect(await api.process.waitForExit(EXIT_TIMEOUT_MS)).toEqual({ code: 0, signal: null });
    expect(api.process.logLines().find((line) => line.msg === 'shutting down')).toMatchObject({ drainMs: 0 });
  });
});
