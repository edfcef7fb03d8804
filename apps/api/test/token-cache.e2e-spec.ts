import { type NestFastifyApplication } from '@nestjs/platform-fastify';
import { AuthChangeListener, hashToken } from '@cairn/auth';
import {
  createTenant,
  createTestDatabase,
  createTestHttpApp,
  createUser,
  issueToken,
  TEST_ADMIN_TOKEN,
  TestClient,
  testConfig,
  type TestDatabase,
  testRedisUrl,
} from '@cairn/testing';
import { Client } from 'pg';
import { ApiModule } from '../src/api.module';
import { eventually } from './process-harness';

/**
 * Verified tokens are answered from memory (no database round trip), and every change that
 * decides access empties that memory on every replica when it commits, whoever made it: the
 * admin API, another replica, or an operator's SQL.
 */
describe('token cache and change notices', () => {
  let database: TestDatabase;
  let replicas: NestFastifyApplication[];
  let uncached: NestFastifyApplication;
  let admin: TestClient;
  let sql: Client;

  beforeAll(async () => {
    database = await createTestDatabase();
    const config = testConfig(database.url, testRedisUrl(), { TOKEN_CACHE_TTL_MS: '60000' });
    replicas = [
      await createTestHttpApp(ApiModule.register(config), config),
      await createTestHttpApp(ApiModule.register(config), config),
    ];
    const off = testConfig(database.url, testRedisUrl(), { TOKEN_CACHE_TTL_MS: '0' });
    uncached = await createTestHttpApp(ApiModule.register(off), off);
    admin = new TestClient(replicas[0], TEST_ADMIN_TOKEN);
    sql = new Client({ connectionString: database.url });
    await sql.connect();
  });
  afterAll(async () => {
    await sql.end();
    for (const app of [...replicas, uncached]) await app.close();
    await database.drop();
  });

  const cacheOf = (app: NestFastifyApplication) => app.get(AuthChangeListener).cache;

  /** Authenticates once, waits until the replica trusts its cache, then once more so it is remembered. */
  async function warm(app: NestFastifyApplication, token: string): Promise<TestClient> {
    const client = new TestClient(app, token);
    expect((await client.get('/v1/whoami')).status).toBe(200);
    await until(() => cacheOf(app).trusted);
    expect((await client.get('/v1/whoami')).status).toBe(200);
    expect(cacheOf(app).get(hashToken(token))).toBeDefined();
    return client;
  }

  /** Runs `work` while another transaction holds the token table exclusively (as a migration would). */
  async function whileTokensLocked<T>(work: () => Promise<T>): Promise<T> {
    await sql.query('BEGIN');
    await sql.query('LOCK TABLE cairn.session_tokens IN ACCESS EXCLUSIVE MODE');
    try {
      return await work();
    } finally {
      await sql.query('ROLLBACK');
    }
  }

  it('answers a remembered token without reading the token table', async () => {
    const tenant = await createTenant(admin);
    const { token } = await issueToken(admin, tenant.slug, { role: 'reader' });
    const client = await warm(replicas[0], token);
    const answered = await whileTokensLocked(() => settledWithin(client.get('/v1/whoami'), 2_000));
    expect(answered?.status).toBe(200);
  });

  it('with TOKEN_CACHE_TTL_MS=0 reads the token table on every request', async () => {
    const tenant = await createTenant(admin);
    const { token } = await issueToken(admin, tenant.slug, { role: 'reader' });
    const client = new TestClient(uncached, token);
    expect((await client.get('/v1/whoami')).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(cacheOf(uncached).trusted).toBe(false);
    const pending = whileTokensLocked(() => settledWithin(client.get('/v1/whoami'), 1_000));
    expect(await pending).toBeUndefined();
  });

  it('a token revoked through one replica is refused there at once and by the other as soon as its notice lands', async () => {
    const tenant = await createTenant(admin);
    const { token, id } = await issueToken(admin, tenant.slug, { role: 'reader' });
    const onA = await warm(replicas[0], token);
    const onB = await warm(replicas[1], token);
    expect((await admin.delete(`/v1/tenants/${tenant.slug}/tokens/${id}`)).status).toBe(204);
    const refused = await onA.get('/v1/whoami');
    expect(refused.status).toBe(401);
    expect(refused.body.error.code).toBe('token_revoked');
    // Another replica hears it from PostgreSQL's notice: normally before the next request, always within moments.
    await until(async () => (await onB.get('/v1/whoami')).status === 401, 1_000);
  });

  it("an operator's SQL revocation, user demotion and tenant deletion reach every replica", async () => {
    const tenant = await createTenant(admin);
    const user = await createUser(admin, tenant.slug, 'admin');
    const revoked = await issueToken(admin, tenant.slug, { role: 'reader' });
    const demoted = await issueToken(admin, tenant.slug, { role: 'admin', userId: user.id });
    const clients = await Promise.all(replicas.flatMap((app) => [warm(app, revoked.token), warm(app, demoted.token)]));
    await sql.query('UPDATE cairn.session_tokens SET revoked_at = now() WHERE id = $1', [revoked.id]);
    await sql.query(`UPDATE cairn.users SET role = 'reader' WHERE id = $1`, [user.id]);
    for (const [index, client] of clients.entries()) {
      if (index % 2 === 0) {
        await until(async () => (await client.get('/v1/whoami')).status === 401);
      } else {
        await until(async () => (await client.get('/v1/whoami')).body.role === 'reader');
      }
    }
    await sql.query('UPDATE cairn.tenants SET deleted_at = now() WHERE id = $1', [tenant.id]);
    for (const client of clients.filter((_, index) => index % 2 === 1)) {
      await until(async () => (await client.get('/v1/whoami')).status === 401);
    }
  });

  it('stops trusting the cache the moment its notice connection drops, and trusts it again once it is back', async () => {
    const app = replicas[0];
    const tenant = await createTenant(admin);
    const { token, id } = await issueToken(admin, tenant.slug, { role: 'reader' });
    const client = await warm(app, token);
    await sql.query(
      `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
       WHERE datname = current_database() AND application_name = 'cairn-api-auth-listener'`,
    );
    await until(() => !cacheOf(app).trusted);
    expect(cacheOf(app).size).toBe(0);
    // No notice can arrive now: the revocation must still count, because every request is looked up.
    await sql.query(`SET session_replication_role = replica`);
    await sql.query('UPDATE cairn.session_tokens SET revoked_at = now() WHERE id = $1', [id]);
    await sql.query(`SET session_replication_role = DEFAULT`);
    expect((await client.get('/v1/whoami')).status).toBe(401);
    await until(() => cacheOf(app).trusted, 10_000);
  });
});

async function settledWithin<T>(work: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), ms)));
  try {
    return await Promise.race([work, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

function until(check: () => boolean | Promise<boolean>, timeoutMs = 5_000): Promise<true> {
  return eventually(async () => ((await check()) ? true : undefined), timeoutMs, 'the condition');
}
