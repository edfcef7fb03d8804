import { randomBytes } from 'node:crypto';
import { EncryptionModule, EnvelopeEncryption, masterKeyId } from '@cairn/encryption';
import { createDbTestingModule, createTestDatabase, type TestDatabase, testConfig, testRedisUrl } from '@cairn/testing';
import {
  type ChildApp,
  eventually,
  fetchErrorCode,
  freePort,
  generateSecrets,
  http,
  killAllChildren,
  lockTables,
  type ProcessAppName,
  releaseAllLocks,
  runMigrate,
  type RunningApp,
  type Secrets,
  spawnApp,
  startApp,
  BOOT_TIMEOUT_MS,
  takeSpawnedChildren,
  withPassword,
} from './process-harness';
import { DataSource } from 'typeorm';

/**
 * The built apps (dist/) as real processes: boot, health/readiness/metrics over real HTTP,
 * graceful shutdown on SIGTERM, configuration errors, degraded readiness and `npm run migrate`.
 */

const SHUTDOWN_TIMEOUT_MS = 5_000;
/** Generous: a process must exit well within its shutdown deadline, plus start-up slack. */
const EXIT_TIMEOUT_MS = SHUTDOWN_TIMEOUT_MS + 5_000;

let database: TestDatabase;
let secrets: Secrets;
/** The per-file database, with a password in it so we can check it is never printed. */
let databaseUrl: string;
const extraDatabases: TestDatabase[] = [];

beforeAll(async () => {
  database = await createTestDatabase();
  secrets = generateSecrets();
  databaseUrl = withPassword(database.url, secrets.databasePassword);
});

afterEach(async () => {
  await killAllChildren();
  await releaseAllLocks();
  // Whatever a test did, no process may ever print a secret it was given.
  for (const child of takeSpawnedChildren()) expectNoSecrets(child);
});

afterAll(async () => {
  await killAllChildren();
  await Promise.all([database, ...extraDatabases].filter(Boolean).map((db) => db.drop()));
});

function expectNoSecrets(child: ChildApp, extra: string[] = []): void {
  const printed = child.stdout + child.stderr;
  for (const secret of [secrets.adminToken, secrets.masterKey, secrets.databasePassword, ...extra]) {
    if (printed.includes(secret)) throw new Error(`${child.label} printed a secret\n${child.output()}`);
  }
}

async function extraDatabase(options: { migrated?: boolean } = {}): Promise<string> {
  const db = await createTestDatabase(options);
  extraDatabases.push(db);
  return withPassword(db.url, secrets.databasePassword);
}

/** A complete, valid environment for `app`; mcp-gateway and worker get no admin token. */
function appEnv(app: ProcessAppName, overrides: Record<string, string | undefined> = {}) {
  return {
    DATABASE_URL: databaseUrl,
    REDIS_URL: testRedisUrl(),
    CAIRN_MASTER_KEY: secrets.masterKey,
    CAIRN_ADMIN_TOKEN: app === 'api' ? secrets.adminToken : undefined,
    SHUTDOWN_TIMEOUT_MS: String(SHUTDOWN_TIMEOUT_MS),
    // The close phase alone; the drain before it has its own tests (shutdown-drain.e2e-spec.ts).
    SHUTDOWN_DRAIN_MS: '0',
    ...overrides,
  };
}

const msgs = (child: ChildApp) => child.logLines().map((line) => line.msg as string);

type Outcome = { kind: 'response'; status: number; body: any } | { kind: 'error'; code: string };

async function settle(request: Promise<{ status: number; body: any }>): Promise<Outcome> {
  try {
    const { status, body } = await request;
    return { kind: 'response', status, body };
  } catch (error) {
    return { kind: 'error', code: fetchErrorCode(error) };
  }
}

async function expectCleanStop(running: RunningApp): Promise<void> {
  const exit = await running.process.waitForExit(EXIT_TIMEOUT_MS);
  expect(exit).toEqual({ code: 0, signal: null });
  const lines = running.process.logLines();
  const shuttingDown = lines.findIndex((line) => line.msg === 'shutting down');
  const stopped = lines.findIndex((line) => line.msg === 'stopped');
  expect(lines[shuttingDown]).toMatchObject({ app: running.app, signal: 'SIGTERM', deadlineMs: SHUTDOWN_TIMEOUT_MS });
  expect(stopped).toBeGreaterThan(shuttingDown);
  expect(msgs(running.process)).not.toContain('shutdown deadline passed; exiting');
  expect(running.process.stderr).toBe('');
}

function describeEveryApp(app: ProcessAppName): void {
  it(`boots${app === 'api' ? '' : ' without CAIRN_ADMIN_TOKEN'} and serves /healthz, /readyz and /metrics`, async () => {
    const running = await startApp(app, appEnv(app));

    const health = await http(`${running.url}/healthz`, { headers: { 'x-request-id': 'process-test-0001' } });
    expect(health.status).toBe(200);
    expect(health.body).toEqual({ status: 'ok' });
    expect(health.headers.get('x-request-id')).toBe('process-test-0001');

    // Redis is reported as it is: on a loaded machine the first answer may come before it connected.
    const ready = await eventually(
      async () => {
        const answer = await http(`${running.url}/readyz`);
        return answer.body.checks?.redis?.ok ? answer : undefined;
      },
      15_000,
      'the Redis check to pass',
    );
    expect(ready.status).toBe(200);
    expect(ready.body.status).toBe('ready');
    expect(ready.body.checks.database.ok).toBe(true);
    expect(ready.body.checks.schema.ok).toBe(true);
    if (app === 'worker') {
      expect(ready.body.checks.embedder).toMatchObject({
        ok: true,
        info: { provider: 'hash', model: 'cairn-hash-v1', warning: expect.stringContaining('built-in') },
      });
    }

    const metrics = await http(`${running.url}/metrics`);
    expect(metrics.status).toBe(200);
    expect(metrics.headers.get('content-type')).toMatch(/^text\/plain/);
    const healthzSeries = metrics.text
      .split('\n')
      .filter((line) => line.startsWith('cairn_http_request_duration_seconds_count{'))
      .filter((line) => line.includes(`app="${app}"`) && line.includes('route="/healthz"'));
    expect(healthzSeries).toEqual(
      expect.arrayContaining([expect.stringMatching(/method="GET".*status="200"|status="200".*method="GET"/)]),
    );
    expect(metrics.text).toMatch(/^process_cpu_user_seconds_total /m);

    const listening = running.process.logLines().find((line) => line.msg === 'listening');
    expect(listening).toMatchObject({ app, level: 'info', port: running.port, host: '127.0.0.1' });
  });

  it('exits 0 on SIGTERM, logging "shutting down" then "stopped"', async () => {
    const running = await startApp(app, appEnv(app));
    running.process.signal('SIGTERM');
    await expectCleanStop(running);
  });
}

describe('api process', () => {
  describeEveryApp('api');

  /** A request that will wait on a test-held lock, with more time than `http`'s default. */
  const blocked = (url: string, headers: Record<string, string> = {}) =>
    settle(http(url, { headers, signal: AbortSignal.timeout(30_000) }));
  const admin = () => ({ authorization: `Bearer ${secrets.adminToken}` });

  it('drains in-flight requests on SIGTERM: every accepted request gets a complete response', async () => {
    const api = await startApp('api', appEnv('api', { DATABASE_POOL_MAX: '30' }));
    // The requests' queries wait on these locks, so all 20 are provably in flight (counted in
    // pg_stat_activity) when SIGTERM arrives, and stay so until the test lets them go.
    const lock = await lockTables(database.url, ['cairn.tenants', 'cairn.control_migrations']);
    const requests = Array.from({ length: 20 }, (_, i) =>
      i % 2 === 0 ? blocked(`${api.url}/readyz`) : blocked(`${api.url}/v1/tenants`, admin()),
    );
    await lock.waitForWaiting('cairn-api', 20);

    api.process.signal('SIGTERM');
    await api.process.waitForLog((line) => line.msg === 'shutting down');
    // No new connections once draining has begun.
    await eventually(
      () =>
        fetch(`${api.url}/healthz`, { headers: { connection: 'close' } }).then(
          () => undefined,
          (error) => (fetchErrorCode(error) === 'ECONNREFUSED' ? true : undefined),
        ),
      10_000,
      'new connections to be refused',
    );
    expect(api.process.alive).toBe(true);

    await lock.release();
    const outcomes = await Promise.all(requests);
    outcomes.forEach((outcome, i) => {
      if (outcome.kind === 'error') throw new Error(`request ${i} got no complete response: ${outcome.code}`);
      if (i % 2 === 0) {
        // Readiness answers during the drain, and says not ready.
        expect(outcome.status).toBe(503);
        expect(outcome.body.status).toBe('not_ready');
      } else {
        expect(outcome.status).toBe(200);
        expect(outcome.body.items).toEqual(expect.any(Array));
      }
    });

    await expectCleanStop(api);
  });

  it('a second SIGTERM (or SIGINT) during shutdown does not cut the drain short', async () => {
    const api = await startApp('api', appEnv('api'));
    const lock = await lockTables(database.url, ['cairn.tenants']);
    const request = blocked(`${api.url}/v1/tenants`, admin());
    await lock.waitForWaiting('cairn-api', 1);

    api.process.signal('SIGTERM');
    await api.process.waitForLog((line) => line.msg === 'shutting down');
    api.process.signal('SIGTERM');
    api.process.signal('SIGINT');
    // If a signal took its default action (or a handler exited), the process would be gone by
    // the time of this round trip to PostgreSQL; the drain is still waiting for the request.
    expect(await lock.waiting('cairn-api')).toBe(1);
    expect(api.process.alive).toBe(true);

    await lock.release();
    expect(await request).toMatchObject({ kind: 'response', status: 200 });
    await expectCleanStop(api);
    expect(msgs(api.process).filter((msg) => msg === 'shutting down')).toHaveLength(1);
  });

  // server.close() reaps idle keep-alive sockets only once, when it starts (fastify/fastify#7044):
  // a keep-alive connection whose request is in flight must be closed with its response, or it
  // idles until its keep-alive timeout and holds the drain past SHUTDOWN_TIMEOUT_MS.
  it('exits 0 promptly after draining a request that arrived on a keep-alive connection', async () => {
    const api = await startApp('api', appEnv('api'));
    const lock = await lockTables(database.url, ['cairn.tenants']);
    const request = settle(http(`${api.url}/v1/tenants`, { headers: admin(), signal: AbortSignal.timeout(30_000) }));
    await lock.waitForWaiting('cairn-api', 1);

    api.process.signal('SIGTERM');
    await api.process.waitForLog((line) => line.msg === 'shutting down');
    await lock.release();
    expect(await request).toMatchObject({ kind: 'response', status: 200 });
    await expectCleanStop(api);
  });

  it('exits 1 once SHUTDOWN_TIMEOUT_MS passes while a request is stuck on its database', async () => {
    const deadlineMs = 1_500;
    const api = await startApp('api', appEnv('api', { SHUTDOWN_TIMEOUT_MS: String(deadlineMs) }));
    const lock = await lockTables(database.url, ['cairn.tenants']);
    const request = blocked(`${api.url}/v1/tenants`, admin());
    await lock.waitForWaiting('cairn-api', 1);

    api.process.signal('SIGTERM');
    const exit = await api.process.waitForExit(deadlineMs + 10_000);
    expect(exit).toEqual({ code: 1, signal: null });
    const lines = api.process.logLines();
    expect(lines.find((line) => line.msg === 'shutting down')).toMatchObject({ deadlineMs });
    expect(lines.find((line) => line.msg === 'shutdown deadline passed; exiting')).toMatchObject({
      level: 'error',
      deadlineMs,
    });
    expect(lines.map((line) => line.msg)).not.toContain('stopped');
    // The stuck request dies with the process: it never got a response.
    expect((await request).kind).toBe('error');
    await lock.release();
  });

  describe('configuration errors stop start-up with one line naming the variable', () => {
    const shortToken = `short-${randomBytes(4).toString('hex')}`;
    const badMasterKey = 'not-base64-of-32-bytes';
    const required = ['DATABASE_URL', 'REDIS_URL', 'CAIRN_ADMIN_TOKEN', 'CAIRN_MASTER_KEY'];

    it.each([
      ['DATABASE_URL', 'is missing', { DATABASE_URL: undefined }],
      ['CAIRN_MASTER_KEY', 'is not base64 of 32 bytes', { CAIRN_MASTER_KEY: badMasterKey }],
      ['CAIRN_ADMIN_TOKEN', 'is too short', { CAIRN_ADMIN_TOKEN: shortToken }],
    ])('%s %s → exit 1', async (variable, _why, overrides: Record<string, string | undefined>) => {
      const api = await spawnApp('api', appEnv('api', overrides));
      const exit = await api.process.waitForExit(10_000);
      expect(exit).toEqual({ code: 1, signal: null });

      const lines = api.process.stderr.split('\n').filter((line) => line.trim() !== '');
      expect(lines).toHaveLength(1);
      expect(lines[0]).toContain(variable);
      for (const other of required.filter((name) => name !== variable)) expect(lines[0]).not.toContain(other);
      expect(api.process.stdout).toBe('');
      expectNoSecrets(api.process, [shortToken, badMasterKey]);
    });
  });

  it('refuses to start when CAIRN_MASTER_KEY cannot unwrap the stored data keys, and starts with the one that can', async () => {
    // Data keys wrapped by another master key, as after a restore or a mixed-up Secret.
    const url = await extraDatabase();
    const other = randomBytes(32);
    const sealing = await createDbTestingModule(
      testConfig(url, testRedisUrl(), { CAIRN_MASTER_KEY: other.toString('base64') }, 'keys'),
      [EncryptionModule],
    );
    try {
      const tenant = '6f1d2c3b-4a59-4e8f-9a7b-0c1d2e3f4a5b';
      await sealing
        .get(DataSource)
        .query(`INSERT INTO cairn.tenants (id, slug, name, schema_name) VALUES ($1, 'mk-boot', 'Boot', 't_mkboot')`, [
          tenant,
        ]);
      await sealing.get(EnvelopeEncryption).encrypt(tenant, { table: 'memories', rowId: 'r', field: 'content' }, 'x');
    } finally {
      await sealing.close();
    }

    for (const app of ['api', 'worker'] as const) {
      const refused = await spawnApp(app, appEnv(app, { DATABASE_URL: url }));
      const exit = await refused.process.waitForExit(BOOT_TIMEOUT_MS);
      expect(exit.code).toBe(1);
      const output = refused.process.output();
      expect(output).toContain('refusing to start: 1 stored data key(s) are wrapped by master key(s)');
      expect(output).toContain(masterKeyId(other));
      expect(output).not.toContain(other.toString('base64'));
    }
    const started = await startApp(
      'api',
      appEnv('api', { DATABASE_URL: url, CAIRN_MASTER_KEY_PREVIOUS: other.toString('base64') }),
    );
    const checked = started.process.logLines().find((line) => String(line.msg).startsWith('master key '));
    expect(checked?.msg).toContain(`previous ${masterKeyId(other)} (CAIRN_MASTER_KEY_PREVIOUS)`);
    expectNoSecrets(started.process, [other.toString('base64')]);
  });

  it('reports not ready until the control schema is migrated, then ready without a restart', async () => {
    const url = await extraDatabase({ migrated: false });
    const api = await startApp('api', appEnv('api', { DATABASE_URL: url }));

    const before = await http(`${api.url}/readyz`);
    expect(before.status).toBe(503);
    expect(before.body.status).toBe('not_ready');
    expect(before.body.checks.database.ok).toBe(true);
    expect(before.body.checks.schema.ok).toBe(false);
    expect(before.body.checks.schema.detail).toMatch(/run npm run migrate/);

    const migrated = await runMigrate(url);
    expect(migrated.code).toBe(0);
    await eventually(
      async () => ((await http(`${api.url}/readyz`)).status === 200 ? true : undefined),
      15_000,
      '/readyz to turn 200 after migrating',
    );
    expect(api.process.alive).toBe(true);
  });

  it('`npm run migrate` migrates the control schema once, then reports it up to date', async () => {
    const url = await extraDatabase({ migrated: false });

    const first = await runMigrate(url);
    expect({ code: first.code, stderr: first.stderr }).toEqual({ code: 0, stderr: '' });
    expect(first.stdout).toMatch(/^control schema: v0 → v\d+: /m);
    expect(first.stdout).toMatch(/^tenants: 0 total/m);

    const second = await runMigrate(url);
    expect({ code: second.code, stderr: second.stderr }).toEqual({ code: 0, stderr: '' });
    expect(second.stdout).toMatch(/^control schema: up to date at v\d+$/m);
    expect(first.output + second.output).not.toContain(secrets.databasePassword);
  });
});

describe('mcp-gateway process', () => {
  describeEveryApp('mcp-gateway');

  it('stays up, ready and reports Redis as degraded when Redis is unreachable', async () => {
    const closedPort = await freePort();
    const redisPassword = `redispw${randomBytes(8).toString('hex')}`;
    const gateway = await startApp(
      'mcp-gateway',
      appEnv('mcp-gateway', { REDIS_URL: `redis://:${redisPassword}@127.0.0.1:${closedPort}` }),
    );

    // The gateway serves on without Redis (writes commit, embedding is deferred to the sweep),
    // so an orchestrator must not pull it: ready, with Redis listed as degraded.
    const ready = await http(`${gateway.url}/readyz`);
    expect(ready.status).toBe(200);
    expect(ready.body.status).toBe('ready');
    expect(ready.body.degraded).toEqual(['redis']);
    expect(ready.body.checks.redis.ok).toBe(false);
    expect(ready.body.checks.redis.detail).toEqual(expect.any(String));
    expect(ready.body.checks.redis.detail.length).toBeGreaterThan(0);
    expect(ready.body.checks.database.ok).toBe(true);
    expect(ready.text).not.toContain(redisPassword);

    const metrics = await http(`${gateway.url}/metrics`);
    expect(metrics.text).toContain('cairn_dependency_up{dependency="redis"} 0');
    expect(metrics.text).toContain('cairn_dependency_up{dependency="database"} 1');

    // Still alive and live after the failed checks.
    expect((await http(`${gateway.url}/readyz`)).status).toBe(200);
    expect((await http(`${gateway.url}/healthz`)).status).toBe(200);
    expect(gateway.process.alive).toBe(true);
    expectNoSecrets(gateway.process, [redisPassword]);
  });

  it('reports the schema check with "run npm run migrate" on an unmigrated database', async () => {
    const url = await extraDatabase({ migrated: false });
    const gateway = await startApp('mcp-gateway', appEnv('mcp-gateway', { DATABASE_URL: url }));
    // Only the schema fails, once Redis has connected (on a loaded machine that can take a moment).
    const ready = await eventually(
      async () => {
        const answer = await http(`${gateway.url}/readyz`);
        return answer.body.checks.redis.ok ? answer : undefined;
      },
      15_000,
      'the Redis check to pass',
    );
    expect(ready.status).toBe(503);
    expect(ready.body.checks.schema).toMatchObject({ ok: false, detail: expect.stringMatching(/run npm run migrate/) });
    expect((await http(`${gateway.url}/healthz`)).status).toBe(200);
    expect(gateway.process.alive).toBe(true);
  });
});

describe('worker process', () => {
  describeEveryApp('worker');
});
