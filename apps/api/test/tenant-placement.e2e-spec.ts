import { type NestFastifyApplication } from '@nestjs/platform-fastify';
import { ClusterPools } from '@cairn/db';
import { SchemaMigrationService, TenantMover } from '@cairn/tenancy';
import {
  createProject,
  createTenant,
  createTestHttpApp,
  issueToken,
  TestClient,
  type TenantFixture,
} from '@cairn/testing';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { startEphemeralPostgres } from '../../../tools/local/services';
import { ApiModule } from '../src/api.module';
import { type ApiHarness, startApi } from './api-harness';
import { memoriesUrl, store } from './memory-fixtures';

interface Placed {
  tenant: TenantFixture;
  project: string;
  agent: TestClient;
  admin: TestClient;
}

/**
 * Tenants placed on two PostgreSQL clusters (docs/scaling.md): home (DATABASE_URL, the control
 * schema) and a second throwaway cluster, `east`, named in DATABASE_CLUSTERS. Tenants are
 * provisioned on both, store and recall through the normal REST API on each, and one is moved
 * from home to east while writers keep writing through two api replicas (the second one's cached
 * placement goes stale): every write the API acknowledged is on east afterwards, with its vector
 * and the audit chain, and the old copy on home is retired.
 */
describe('tenant placement on two PostgreSQL clusters', () => {
  let east: { databaseUrl: string; stop(): Promise<void> };
  let eastUrl: string;
  let api: ApiHarness;
  let replica: NestFastifyApplication;
  let home: Placed;
  let away: Placed;

  const eastQuery = async <T>(sql: string, params: unknown[] = []): Promise<T[]> => {
    const client = new Client({ connectionString: eastUrl });
    await client.connect();
    try {
      return (await client.query(sql, params)).rows as T[];
    } finally {
      await client.end();
    }
  };
  const homeQuery = <T>(sql: string, params: unknown[] = []): Promise<T[]> =>
    api.app.get(DataSource).query<T[]>(sql, params);
  const clusterOf = async (tenant: TenantFixture) =>
    (await homeQuery<{ cluster: string }>(`SELECT cluster FROM cairn.tenants WHERE id = $1`, [tenant.id]))[0]?.cluster;

  const placed = async (): Promise<Placed> => {
    const tenant = await createTenant(api.admin);
    const project = (await createProject(api.admin, tenant.slug)).slug;
    const token = async (role: string, agentId?: string) =>
      api.client.as((await issueToken(api.admin, tenant.slug, { role, projects: '*', agentId })).token);
    return { tenant, project, agent: await token('agent', 'claude-code:placement'), admin: await token('admin') };
  };
  const recall = async (who: Placed, query: string, client = who.agent) => {
    const response = await client.post(memoriesUrl(who.project, '/search'), { query, mode: 'keyword' });
    expect(response.status).toBe(200);
    return (response.body as { results: { memory: { id: string; content: string } }[] }).results.map(
      (hit) => hit.memory,
    );
  };

  beforeAll(async () => {
    east = await startEphemeralPostgres();
    eastUrl = east.databaseUrl;
    api = await startApi({ DATABASE_CLUSTERS: `east=${eastUrl}` });
    // `npm run migrate`: prepares east (extensions, the outbox) besides the control schema.
    const run = await api.app.get(SchemaMigrationService).run({
      waiting: () => undefined,
      controlDone: () => undefined,
      tenantDone: () => undefined,
    });
    expect(run.control.clusters).toEqual(['east']);
    // A second replica on the same databases, with a placement cache of its own.
    replica = await createTestHttpApp(ApiModule.register(api.config), api.config);
    // The fewest-tenants policy: the first goes home (a tie goes home), the second east.
    home = await placed();
    away = await placed();
  }, 120_000);

  afterAll(async () => {
    await replica?.close();
    await api?.close();
    await east?.stop();
  });

  it('provisions tenants on both clusters, each schema on its own cluster only', async () => {
    expect(await clusterOf(home.tenant)).toBe('home');
    expect(await clusterOf(away.tenant)).toBe('east');
    const onEast = await eastQuery<{ nspname: string }>(`SELECT nspname FROM pg_namespace WHERE nspname LIKE 't\\_%'`);
    expect(onEast.map((row) => row.nspname)).toEqual([away.tenant.schema]);
    const onHome = await homeQuery<{ nspname: string }>(`SELECT nspname FROM pg_namespace WHERE nspname = ANY($1)`, [
      [home.tenant.schema, away.tenant.schema],
    ]);
    expect(onHome.map((row) => row.nspname)).toEqual([home.tenant.schema]);
    // Migrated to the latest version there, stamped on the schema and recorded on home.
    const [stamp] = await eastQuery<{ comment: string }>(
      `SELECT obj_description(to_regnamespace($1)::oid, 'pg_namespace') AS comment`,
      [away.tenant.schema],
    );
    const [recorded] = await homeQuery<{ v: number }>(`SELECT schema_version AS v FROM cairn.tenants WHERE id = $1`, [
      away.tenant.id,
    ]);
    expect(stamp.comment).toBe(`cairn:schema_version=${recorded.v}`);
  });

  it('stores and recalls on each cluster through the normal API, and keeps tenants apart', async () => {
    const onHome = await store(home.agent, home.project, {
      content: 'Home cluster fact: invoices are archived nightly',
    });
    const onEast = await store(away.agent, away.project, {
      content: 'East cluster fact: invoices are archived weekly',
    });
    expect((await recall(home, 'invoices archived')).map((m) => m.id)).toEqual([onHome.memory.id]);
    expect((await recall(away, 'invoices archived')).map((m) => m.id)).toEqual([onEast.memory.id]);
    const [row] = await eastQuery<{ n: number }>(
      `SELECT count(*)::int AS n FROM "${away.tenant.schema}".memories WHERE id = $1`,
      [onEast.memory.id],
    );
    expect(row.n).toBe(1);
    // One tenant's token never reaches the other's memory, whichever cluster either lives on.
    expect((await away.agent.get(memoriesUrl(home.project, `/${onHome.memory.id}`))).status).toBe(404);
    expect((await home.agent.get(memoriesUrl(away.project, `/${onEast.memory.id}`))).status).toBe(404);
  });

  it('moves a tenant from home to east while writers write: nothing acknowledged is lost', async () => {
    const { tenant } = home;
    const before = await Promise.all(
      Array.from({ length: 20 }, (_, i) => store(home.agent, home.project, { content: `Fact before the move ${i}` })),
    );
    const withVectors = await homeQuery<{ n: number }>(
      `SELECT count(*)::int AS n FROM "${tenant.schema}".memories WHERE embedding IS NOT NULL`,
    );
    const auditBefore = (await home.admin.get(`/v1/tenants/${tenant.slug}/audit/verify`)).body as { entries: number };
    expect(auditBefore.entries).toBeGreaterThan(0);
    // The replica resolves (and caches) the tenant's placement: home.
    const replicaAgent = new TestClient(replica).as(home.agent.token);
    expect((await recall(home, 'before the move', replicaAgent)).length).toBeGreaterThan(0);

    const acknowledged: string[] = [];
    const refused: { status: number; retryAfter: string | undefined }[] = [];
    const unexpected: { status: number; body: unknown }[] = [];
    let moving = true;
    let written = 0;
    const writer = async (client: TestClient, name: string) => {
      while (moving) {
        const response = await client.post(memoriesUrl(home.project), {
          content: `Fact during the move ${name} ${written++}`,
        });
        if (response.status === 201) acknowledged.push((response.body as { memory: { id: string } }).memory.id);
        else if (response.status === 503) {
          refused.push({ status: 503, retryAfter: response.headers['retry-after'] as string });
          // A client honouring Retry-After (1 s), shortened so the test stays quick.
          await new Promise((resolve) => setTimeout(resolve, 25));
        } else unexpected.push({ status: response.status, body: response.body });
      }
    };
    const writers = [
      writer(home.agent, 'a'),
      writer(home.agent, 'b'),
      writer(replicaAgent, 'c'),
      writer(replicaAgent, 'd'),
    ];
    // Let the writers get going, then move.
    while (acknowledged.length < 8) await new Promise((resolve) => setTimeout(resolve, 10));
    const duringMoveStart = acknowledged.length;
    const report = await api.app.get(TenantMover).move(tenant.slug, 'east');
    // Writes after the flip, through both replicas (the replica's stale cache meets the retired schema once).
    const afterFlip = acknowledged.length;
    while (acknowledged.length < afterFlip + 8) await new Promise((resolve) => setTimeout(resolve, 10));
    moving = false;
    await Promise.all(writers);

    expect(unexpected).toEqual([]);
    // Writers met the freeze: refused retryably (503 + Retry-After), never acknowledged and dropped.
    expect(refused.length).toBeGreaterThan(0);
    refused.forEach((r) => expect(r.retryAfter).toBe('1'));
    expect(report).toMatchObject({ from: 'home', to: 'east', schema: tenant.schema });
    expect(acknowledged.length).toBeGreaterThan(duringMoveStart);
    expect(await clusterOf(tenant)).toBe('east');

    // Every acknowledged write and every earlier one is on east; nothing else is.
    const all = [...before.map((b) => b.memory.id), ...acknowledged];
    const [counted] = await eastQuery<{ found: number; total: number }>(
      `SELECT count(*) FILTER (WHERE id = ANY($1::uuid[]))::int AS found, count(*)::int AS total
         FROM "${tenant.schema}".memories WHERE content LIKE 'Fact %'`,
      [all],
    );
    expect(counted).toEqual({ found: all.length, total: all.length });
    // The vectors came along, and recall works there (keyword and by meaning).
    const [vectors] = await eastQuery<{ n: number }>(
      `SELECT count(*)::int AS n FROM "${tenant.schema}".memories WHERE embedding IS NOT NULL`,
    );
    expect(vectors.n).toBeGreaterThanOrEqual(withVectors[0].n);
    expect((await recall(home, 'Fact before the move 7')).map((m) => m.content)).toContain('Fact before the move 7');
    const semantic = await home.agent.post(memoriesUrl(home.project, '/search'), {
      query: 'Fact before the move 3',
      mode: 'semantic',
    });
    expect(semantic.status).toBe(200);
    expect((semantic.body as { results: unknown[] }).results.length).toBeGreaterThan(0);
    // The audit chain moved whole and still verifies, on east.
    const auditAfter = (await home.admin.get(`/v1/tenants/${tenant.slug}/audit/verify`)).body as {
      valid: boolean;
      entries: number;
    };
    expect(auditAfter.valid).toBe(true);
    expect(auditAfter.entries).toBeGreaterThanOrEqual(auditBefore.entries);
    // Every table's count and digest was compared on both sides.
    expect(report.tables.find((t) => t.table === 'audit_log')?.rows).toBeGreaterThanOrEqual(auditBefore.entries);
    expect(report.tables.length).toBeGreaterThan(20);

    // The old copy on home is retired under its new name, waiting to be dropped.
    const left = await homeQuery<{ nspname: string }>(`SELECT nspname FROM pg_namespace WHERE nspname LIKE $1`, [
      `${tenant.schema}%`,
    ]);
    expect(left.map((row) => row.nspname)).toEqual([report.retiredAs]);
    expect(report.retiredAs).toMatch(new RegExp(`^${tenant.schema}_moved_[0-9]+$`));

    // Isolation still holds: the other tenant on east neither sees nor is seen.
    const awayHits = await recall(away, 'Fact during the move');
    expect(awayHits.filter((m) => m.content.startsWith('Fact '))).toEqual([]);
    const homeHits = await recall(home, 'East cluster fact weekly');
    expect(homeHits.map((m) => m.content)).not.toContain('East cluster fact: invoices are archived weekly');
  }, 120_000);

  it('refuses a move to a cluster it does not know, and a move to where the tenant is', async () => {
    const mover = api.app.get(TenantMover);
    await expect(mover.move(away.tenant.slug, 'west')).rejects.toThrow(/No cluster "west"/);
    await expect(mover.move(away.tenant.slug, 'east')).rejects.toThrow(/on east already/);
    expect(api.app.get(ClusterPools).names()).toEqual(['home', 'east']);
  });
});
