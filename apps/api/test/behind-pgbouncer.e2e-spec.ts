import { type NestFastifyApplication } from '@nestjs/platform-fastify';
import { type TestingModule } from '@nestjs/testing';
import { AuthChangeListener } from '@cairn/auth';
import { LOCK_NAMESPACE, MIGRATION_LOCK_ID, PreparedStatements } from '@cairn/db';
import { type MigrationListener, SchemaMigrationService, TenancyModule } from '@cairn/tenancy';
import {
  createDbTestingModule,
  createProject,
  createTenant,
  createTestDatabase,
  createTestHttpApp,
  issueToken,
  type PgbouncerInstance,
  startPgbouncer,
  TEST_ADMIN_TOKEN,
  TestClient,
  testConfig,
  type TestDatabase,
  testRedisUrl,
} from '@cairn/testing';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { ApiModule } from '../src/api.module';
import { eventually } from './process-harness';

/**
 * Cairn behind Debian 12's PgBouncer (1.18) in transaction pooling mode, the usual production
 * set-up on Kubernetes: what such a pooler breaks (named statements, startup parameters, session
 * state), and that Cairn, told DATABASE_POOLER=transaction, neither needs nor leaks any of it.
 * Each describe starts its own pgbouncer, whatever CAIRN_TEST_PGBOUNCER says.
 */
describe('behind PgBouncer in transaction mode', () => {
  let database: TestDatabase;
  let pgbouncer: PgbouncerInstance;
  let pooledUrl: string;
  const closing: { close(): Promise<unknown> }[] = [];

  beforeAll(async () => {
    database = await createTestDatabase();
    pgbouncer = await startPgbouncer(database.url);
    pooledUrl = pgbouncer.through(database.url);
  });
  afterAll(async () => {
    for (const item of closing.reverse()) await item.close();
    await pgbouncer.stop();
    await database.drop();
  });

  /** Configuration of an app behind the pooler: with the direct URL beside it unless `direct` is false. */
  function pooled(overrides: Record<string, string> = {}, direct = true, app: 'api' | 'migrate' = 'api') {
    return testConfig(
      database.url,
      testRedisUrl(),
      {
        DATABASE_URL: pooledUrl,
        DATABASE_POOLER: 'transaction',
        ...(direct ? { DATABASE_DIRECT_URL: database.url } : {}),
        ...overrides,
      },
      app,
    );
  }

  async function client(url = pooledUrl, extra: Record<string, unknown> = {}): Promise<Client> {
    const connection = new Client({ connectionString: url, ...extra });
    await connection.connect();
    closing.push({ close: () => connection.end().catch(() => undefined) });
    return connection;
  }

  async function api(config: ReturnType<typeof pooled>): Promise<NestFastifyApplication> {
    const app = await createTestHttpApp(ApiModule.register(config), config);
    closing.push(app);
    return app;
  }

  describe('what the pooler breaks, so the settings matter', () => {
    it('a named statement prepared on one server connection is unknown on the next', async () => {
      const a = await client();
      const b = await client();
      const statement = { name: 'cairn_pgbouncer_probe', text: 'SELECT 1 AS one' };
      expect((await a.query(statement)).rows).toEqual([{ one: 1 }]);
      // B's transaction holds the server connection A's statement was prepared on (PgBouncer
      // hands out the most recently used one), so A's next execution lands on another.
      await b.query('BEGIN');
      await b.query('SELECT 1');
      try {
        await expect(a.query(statement)).rejects.toThrow(/prepared statement "cairn_pgbouncer_probe" does not exist/);
      } finally {
        await b.query('ROLLBACK');
      }
    });

    it('refuses a statement_timeout in the startup packet, as pg sends it without DATABASE_POOLER=transaction', async () => {
      await expect(client(pooledUrl, { statement_timeout: 30_000 })).rejects.toThrow(/unsupported startup parameter/);
    });
  });

  describe('hot queries', () => {
    let module: TestingModule;

    /** How many named statements the pool's single connection holds after a token lookup and a tenant-style one. */
    async function namedAfterHotQueries(overrides: Record<string, string>): Promise<number> {
      // Straight to PostgreSQL with one connection, so pg_prepared_statements shows that connection's.
      // DATABASE_URL given: straight to PostgreSQL even in a run through pgbouncer (CAIRN_TEST_PGBOUNCER=1).
      const config = testConfig(database.url, testRedisUrl(), {
        DATABASE_URL: database.url,
        DATABASE_POOL_MAX: '1',
        ...overrides,
      });
      module = await createDbTestingModule(config, []);
      const prepared = module.get(PreparedStatements);
      const dataSource = module.get(DataSource);
      await prepared.query('cairn_hot_lookup_v1', 'SELECT $1::int AS n', [1]);
      await dataSource.transaction((manager) => prepared.queryIn(manager, 'SELECT $1::int + 1 AS n', [1]));
      const [row] = await dataSource.query<{ named: number }[]>(
        'SELECT count(*)::int AS named FROM pg_prepared_statements',
      );
      await module.close();
      return row.named;
    }

    it('run as unnamed statements with DATABASE_POOLER=transaction, and as named ones otherwise', async () => {
      expect(await namedAfterHotQueries({ DATABASE_POOLER: 'transaction' })).toBe(0);
      expect(await namedAfterHotQueries({})).toBe(2);
      // PgBouncer >= 1.21 with max_prepared_statements keeps them: the operator says so.
      expect(await namedAfterHotQueries({ DATABASE_POOLER: 'transaction', DATABASE_PREPARED_STATEMENTS: 'on' })).toBe(
        2,
      );
    });

    it('answer right through the pooler while other clients hold its server connections in turn', async () => {
      const app = await api(pooled({ TOKEN_CACHE_TTL_MS: '0' }));
      const admin = new TestClient(app, TEST_ADMIN_TOKEN);
      const tenant = await createTenant(admin);
      const project = (await createProject(admin, tenant.slug)).slug;
      const agent = new TestClient(
        app,
        (await issueToken(admin, tenant.slug, { role: 'agent', agentId: 'a:1' })).token,
      );
      const holder = await client();
      for (let round = 0; round < 5; round++) {
        // Moves the pooler's most recently used server connection out of the way, as load would.
        await holder.query('BEGIN');
        await holder.query('SELECT 1');
        const stored = await agent.post(`/v1/projects/${project}/memories`, { content: `pooled fact ${round}` });
        expect(stored.status).toBe(201);
        const searches = await Promise.all(
          Array.from({ length: 4 }, () =>
            agent.post(`/v1/projects/${project}/memories/search`, { query: 'pooled fact', mode: 'keyword' }),
          ),
        );
        for (const found of searches) expect(found.status).toBe(200);
        expect(searches[0].body.results.length).toBe(round + 1);
        await holder.query('ROLLBACK');
      }
    });
  });

  describe('the token cache', () => {
    it('listens on DATABASE_DIRECT_URL, so the cache works and a revocation still takes effect at once', async () => {
      const app = await api(pooled({ TOKEN_CACHE_TTL_MS: '60000' }));
      const admin = new TestClient(app, TEST_ADMIN_TOKEN);
      const tenant = await createTenant(admin);
      const { token, id } = await issueToken(admin, tenant.slug, { role: 'reader' });
      const reader = new TestClient(app, token);
      expect((await reader.get('/v1/whoami')).status).toBe(200);
      await eventually(() => Promise.resolve(app.get(AuthChangeListener).cache.trusted || undefined), 5_000, 'trust');
      const listeners = await (
        await client(database.url)
      ).query<{ n: number }>(
        `SELECT count(*)::int AS n FROM pg_stat_activity
         WHERE datname = current_database() AND application_name = 'cairn-api-auth-listener'`,
      );
      expect(listeners.rows[0].n).toBe(1);
      expect((await admin.delete(`/v1/tenants/${tenant.slug}/tokens/${id}`)).status).toBe(204);
      expect((await reader.get('/v1/whoami')).status).toBe(401);
    });

    it('stays off without DATABASE_DIRECT_URL (every request looked up), and revocations still count at once', async () => {
      const app = await api(pooled({ TOKEN_CACHE_TTL_MS: '60000' }, false));
      const admin = new TestClient(app, TEST_ADMIN_TOKEN);
      const tenant = await createTenant(admin);
      const { token, id } = await issueToken(admin, tenant.slug, { role: 'reader' });
      const reader = new TestClient(app, token);
      for (let i = 0; i < 3; i++) expect((await reader.get('/v1/whoami')).status).toBe(200);
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(app.get(AuthChangeListener).cache.trusted).toBe(false);
      expect(app.get(AuthChangeListener).cache.size).toBe(0);
      // Revoked with SQL that fires no notice: only a lookup can see it.
      const sql = await client(database.url);
      await sql.query(`SET session_replication_role = replica`);
      await sql.query('UPDATE cairn.session_tokens SET revoked_at = now() WHERE id = $1', [id]);
      await sql.query(`SET session_replication_role = DEFAULT`);
      expect((await reader.get('/v1/whoami')).status).toBe(401);
    });
  });

  describe('npm run migrate', () => {
    const listener = (events: string[]): MigrationListener => ({
      waiting: () => events.push('waiting'),
      controlDone: () => events.push('control'),
      tenantDone: (report) => events.push(`tenant:${report.status}`),
    });

    async function migrator(direct: boolean): Promise<SchemaMigrationService> {
      const module = await createDbTestingModule(pooled({}, direct, 'migrate'), [TenancyModule]);
      closing.push(module);
      return module.get(SchemaMigrationService);
    }

    it('holds its lock on DATABASE_DIRECT_URL while the work goes through the pooler', async () => {
      const service = await migrator(true);
      // Someone else holds the migration lock: the run waits for it, then migrates.
      const holder = await client(database.url);
      await holder.query('SELECT pg_advisory_lock($1, $2)', [LOCK_NAMESPACE, MIGRATION_LOCK_ID]);
      const events: string[] = [];
      const run = service.run(listener(events));
      await eventually(() => Promise.resolve(events.includes('waiting') || undefined), 5_000, 'the run to wait');
      await holder.query('SELECT pg_advisory_unlock($1, $2)', [LOCK_NAMESPACE, MIGRATION_LOCK_ID]);
      const report = await run;
      expect(report.failed).toBe(0);
      expect(events).toContain('control');
      // Released at the end: another session takes it at once.
      const [row] = (await holder.query('SELECT pg_try_advisory_lock($1, $2) AS locked', [LOCK_NAMESPACE, 1])).rows;
      expect(row.locked).toBe(true);
      await holder.query('SELECT pg_advisory_unlock($1, $2)', [LOCK_NAMESPACE, MIGRATION_LOCK_ID]);
    });

    it('refuses without DATABASE_DIRECT_URL, saying what to set', async () => {
      const service = await migrator(false);
      await expect(service.run(listener([]))).rejects.toThrow(
        /npm run migrate holds a session-level advisory lock.*DATABASE_POOLER=transaction.*set DATABASE_DIRECT_URL/,
      );
    });
  });
});
