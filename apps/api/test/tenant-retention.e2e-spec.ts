import { randomBytes, randomUUID } from 'node:crypto';
import { type TestingModule } from '@nestjs/testing';
import { TenantAuditLog } from '@cairn/audit';
import { EmbeddingsModule, EmbeddingTargetsModule } from '@cairn/embeddings';
import { JobHandlers, JobQueue, JobsModule } from '@cairn/jobs';
import { KnowledgeModule } from '@cairn/knowledge';
import { MaintenanceWorkerModule } from '@cairn/maintenance';
import { MemoryModule } from '@cairn/memory';
import { ProjectsModule } from '@cairn/projects';
import { SearchModule } from '@cairn/search';
import { TenancyModule } from '@cairn/tenancy';
import {
  createDbTestingModule,
  createProject,
  createTenant,
  issueToken,
  type TenantFixture,
  type TestClient,
  testConfig,
  testRedisUrl,
} from '@cairn/testing';
import { DataSource } from 'typeorm';
import { type ApiHarness, startApi } from './api-harness';

/** The installation's retention in this file, stated rather than assumed. */
const INSTALLATION = {
  AUDIT_RETENTION_DAYS: '365',
  KB_RETENTION_EXTERNAL_DAYS: '14',
  KB_RETENTION_INTERNAL_DAYS: '30',
  KB_RETENTION_SUMMARY_DAYS: '365',
};
const DAY_MS = 86_400_000;

interface World {
  readonly tenant: TenantFixture;
  readonly project: string;
  readonly admin: TestClient;
  readonly agent: TestClient;
}

/**
 * A tenant's own retention (the `retention` tenant setting): shown with the installation's
 * defaults, validated, kept to tenant admins and the platform admin, audited, and applied by the
 * real retention purge (the worker's handler, run through the job registry, which enters the
 * tenant) to entries made before it was chosen, in both directions, while a tenant without one
 * keeps the installation's days.
 */
describe('per-tenant retention', () => {
  let api: ApiHarness;
  let worker: TestingModule;
  /** Chooses 30 audit days, 2 external days (shorter than the installation) and 60 internal (longer). */
  let short: World;
  /** Chooses nothing: the installation's days. */
  let plain: World;
  /** Keeps its audit log forever (0), where the installation prunes at 365 days. */
  let forever: World;

  const settingsUrl = (w: World) => `/v1/tenants/${w.tenant.slug}/settings`;
  const docsUrl = (w: World) => `/v1/projects/${w.project}/kb/documents`;
  const sql = <T = any>(query: string, params: unknown[] = []) => api.app.get(DataSource).query<T[]>(query, params);
  const purge = (tenantId: string) =>
    worker
      .get(JobHandlers)
      .get('maintenance', 'retention-purge')!
      .handle({ tenantId } as never, {
        id: randomUUID(),
        attemptsMade: 0,
        queue: 'maintenance',
        name: 'retention-purge',
      });

  async function world(): Promise<World> {
    const tenant = await createTenant(api.admin);
    // Dated entries first, so they lead the chain as the oldest entries of a real log do.
    const entry = { actor: 'token:t', target: null, outcome: 'success' as const, status: null, requestId: null };
    await worker.get(TenantAuditLog).appendMany(tenant.schema, [
      { ...entry, action: 'test.ancient', at: new Date(Date.now() - 400 * DAY_MS) },
      { ...entry, action: 'test.aged', at: new Date(Date.now() - 40 * DAY_MS) },
      { ...entry, action: 'test.recent' },
    ]);
    const project = (await createProject(api.admin, tenant.slug)).slug;
    const token = async (role: string, agentId?: string) =>
      api.client.as((await issueToken(api.admin, tenant.slug, { role, projects: '*', agentId })).token);
    return { tenant, project, admin: await token('admin'), agent: await token('agent', 'claude-code:alice') };
  }

  /** Indexes a document and dates it as if indexed `daysAgo` days ago under the installation's days. */
  async function indexedAgo(w: World, source: string, sourceType: 'external' | 'internal', daysAgo: number) {
    const indexed = await w.agent.post(docsUrl(w), { source, text: `The text of ${source}.`, sourceType });
    expect(indexed.status).toBe(201);
    const id: string = indexed.body.document.id;
    const ago = `${daysAgo} days`;
    await sql(
      `UPDATE "${w.tenant.schema}".kb_documents SET created_at = created_at - $2::interval,
         retained_from = retained_from - $2::interval, expires_at = expires_at - $2::interval WHERE id = $1`,
      [id, ago],
    );
    return id;
  }

  const documents = async (w: World) =>
    (await w.admin.get(docsUrl(w))).body.items as { id: string; source: string; expiresAt: string }[];
  const auditActions = async (w: World) =>
    (await sql<{ action: string }>(`SELECT action FROM "${w.tenant.schema}".audit_log ORDER BY id`)).map(
      (row) => row.action,
    );

  beforeAll(async () => {
    api = await startApi(INSTALLATION);
    worker = await createDbTestingModule(
      testConfig(
        api.database.url,
        testRedisUrl(),
        { QUEUE_PREFIX: `ret${randomBytes(4).toString('hex')}`, ...INSTALLATION },
        'worker',
      ),
      [
        TenancyModule,
        ProjectsModule,
        JobsModule,
        EmbeddingsModule,
        EmbeddingTargetsModule,
        SearchModule,
        MemoryModule,
        KnowledgeModule,
        MaintenanceWorkerModule,
      ],
    );
    short = await world();
    plain = await world();
    forever = await world();
  });
  afterAll(async () => {
    await worker?.close();
    await api?.close();
  });

  it('shows the installation’s days until the tenant chooses its own', async () => {
    const settings = await short.admin.get(settingsUrl(short));
    expect(settings.status).toBe(200);
    expect(settings.body.retention).toEqual({
      auditLogDays: { effective: 365, tenant: null, default: 365 },
      knowledgeBaseDays: {
        external: { effective: 14, tenant: null, default: 14 },
        internal: { effective: 30, tenant: null, default: 30 },
        summary: { effective: 365, tenant: null, default: 365 },
      },
    });
  });

  it('applies each tenant’s retention in the purge, to what was kept before it was chosen', async () => {
    // Five days old: the installation keeps external documents 14 days, this tenant 2.
    const shortExternal = await indexedAgo(short, 'https://example.com/old-page', 'external', 5);
    // Forty days old: the installation keeps internal ones 30 days, this tenant 60.
    const shortInternal = await indexedAgo(short, 'notes/design.md', 'internal', 40);
    const plainExternal = await indexedAgo(plain, 'https://example.com/old-page', 'external', 5);
    await indexedAgo(plain, 'notes/design.md', 'internal', 40);

    const changed = await short.admin.patch(settingsUrl(short), {
      retention: { auditLogDays: 30, knowledgeBaseDays: { external: 2, internal: 60 } },
    });
    expect(changed.status).toBe(200);
    expect(changed.body.retention).toEqual({
      auditLogDays: { effective: 30, tenant: 30, default: 365 },
      knowledgeBaseDays: {
        external: { effective: 2, tenant: 2, default: 14 },
        internal: { effective: 60, tenant: 60, default: 30 },
        summary: { effective: 365, tenant: null, default: 365 },
      },
    });
    expect((await short.admin.get(settingsUrl(short))).body.retention).toEqual(changed.body.retention);
    // The platform admin may choose for a tenant too.
    const kept = await api.admin.patch(settingsUrl(forever), { retention: { auditLogDays: 0 } });
    expect(kept.status).toBe(200);
    expect(kept.body.retention.auditLogDays).toEqual({ effective: 0, tenant: 0, default: 365 });

    // The change queued the tenant's purge, so it applies without waiting for the schedule.
    const queued = await api.app.get(JobQueue).queue('maintenance').getJobs(['waiting', 'delayed', 'prioritized']);
    expect(
      queued.filter((job) => job.name === 'retention-purge').map((job) => (job.data as { tenantId: string }).tenantId),
    ).toEqual(expect.arrayContaining([short.tenant.id, forever.tenant.id]));

    const shortResult = await purge(short.tenant.id);
    expect(shortResult).toMatchObject({ status: 'done', counts: { external: 1, internal: 0 } });
    const shortLeft = await documents(short);
    expect(shortLeft.map((d) => d.id)).toEqual([shortInternal]);
    expect(shortLeft.map((d) => d.id)).not.toContain(shortExternal);
    // Its expiry now follows the tenant's 60 days from when it was indexed (40 days ago).
    expect(Math.abs(Date.parse(shortLeft[0].expiresAt) - (Date.now() + 20 * DAY_MS))).toBeLessThan(60_000);
    expect(await auditActions(short)).not.toEqual(expect.arrayContaining(['test.aged']));
    expect(await auditActions(short)).toContain('test.recent');

    // The tenant without a setting: the installation's days, the other way round.
    const plainResult = await purge(plain.tenant.id);
    expect(plainResult).toMatchObject({ status: 'done', counts: { external: 0, internal: 1 } });
    expect((await documents(plain)).map((d) => d.id)).toEqual([plainExternal]);
    const plainActions = await auditActions(plain);
    expect(plainActions).toEqual(expect.arrayContaining(['test.aged', 'test.recent']));
    expect(plainActions).not.toContain('test.ancient');

    // 0 keeps the audit log forever, where the installation would prune at 365 days.
    await purge(forever.tenant.id);
    expect(await auditActions(forever)).toEqual(expect.arrayContaining(['test.ancient', 'test.aged', 'test.recent']));
    for (const w of [short, plain, forever]) {
      expect((await w.admin.get(`/v1/tenants/${w.tenant.slug}/audit/verify`)).body).toMatchObject({ valid: true });
    }

    // What is indexed from now on expires by the tenant's days.
    const fresh = await short.agent.post(docsUrl(short), {
      source: 'https://example.com/new-page',
      text: 'A page fetched today.',
      sourceType: 'external',
    });
    expect(Math.abs(Date.parse(fresh.body.document.expiresAt) - (Date.now() + 2 * DAY_MS))).toBeLessThan(60_000);
  });

  it('audits a retention change from what to what', async () => {
    const entries = await sql<{ actor: string; details: any }>(
      `SELECT actor, details FROM "${short.tenant.schema}".audit_log WHERE action = 'tenant.settings.retention' ORDER BY id`,
    );
    expect(entries).toHaveLength(1);
    expect(entries[0].details).toEqual({
      from: {
        auditLogDays: { days: 365, tenant: null },
        knowledgeBaseDays: {
          external: { days: 14, tenant: null },
          internal: { days: 30, tenant: null },
          summary: { days: 365, tenant: null },
        },
      },
      to: {
        auditLogDays: { days: 30, tenant: 30 },
        knowledgeBaseDays: {
          external: { days: 2, tenant: 2 },
          internal: { days: 60, tenant: 60 },
          summary: { days: 365, tenant: null },
        },
      },
    });
    const updates = async () =>
      (
        await sql<{ outcome: string }>(
          `SELECT outcome FROM "${short.tenant.schema}".audit_log WHERE action = 'tenant.settings.update'`,
        )
      ).map((row) => row.outcome);
    const deadline = Date.now() + 5_000;
    while (!(await updates()).includes('success') && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(await updates()).toContain('success');
  });

  it('goes back to the installation’s default with null, and a repeat changes and audits nothing', async () => {
    const reset = await short.admin.patch(settingsUrl(short), { retention: { knowledgeBaseDays: { internal: null } } });
    expect(reset.status).toBe(200);
    expect(reset.body.retention.knowledgeBaseDays.internal).toEqual({ effective: 30, tenant: null, default: 30 });
    expect(reset.body.retention.knowledgeBaseDays.external).toEqual({ effective: 2, tenant: 2, default: 14 });
    const count = async () =>
      (await sql(`SELECT 1 FROM "${short.tenant.schema}".audit_log WHERE action = 'tenant.settings.retention'`)).length;
    const before = await count();
    expect(before).toBe(2);
    expect((await short.admin.patch(settingsUrl(short), { retention: { auditLogDays: 30 } })).status).toBe(200);
    expect(await count()).toBe(before);
  });

  it('refuses bad input with 400 validation_failed, changing nothing', async () => {
    const before = (await short.admin.get(settingsUrl(short))).body.retention;
    for (const retention of [
      { auditLogDays: -1 },
      { auditLogDays: 29 },
      { auditLogDays: 36_501 },
      { auditLogDays: 90.5 },
      { auditLogDays: '90' },
      { knowledgeBaseDays: { external: 0 } },
      { knowledgeBaseDays: { internal: 3_651 } },
      { knowledgeBaseDays: { summary: 1e308 } },
      { knowledgeBaseDays: { archive: 3 } },
      { knowledgeBaseDays: {} },
      { knowledgeBaseDays: 7 },
      { days: 7 },
      {},
      null,
      [30],
    ]) {
      const bad = await short.admin.patch(settingsUrl(short), { retention });
      expect({ retention, status: bad.status, code: bad.body.error?.code }).toEqual({
        retention,
        status: 400,
        code: 'validation_failed',
      });
    }
    const named = await short.admin.patch(settingsUrl(short), { retention: { auditLogDays: 29 } });
    expect(named.body.error.message).toMatch(
      /retention\.auditLogDays.*0 \(keep forever\) or at least 30 days \(at most 36500\), a whole number/,
    );
    expect((await short.admin.get(settingsUrl(short))).body.retention).toEqual(before);
  });

  it('keeps retention to the tenant’s admins and the platform admin', async () => {
    const before = (await short.admin.get(settingsUrl(short))).body.retention;
    const change = { retention: { auditLogDays: 0, knowledgeBaseDays: { external: 3_650 } } };
    for (const role of ['member', 'orchestrator', 'agent', 'reader']) {
      const client = api.client.as(
        (
          await issueToken(api.admin, short.tenant.slug, {
            role,
            projects: '*',
            agentId: role === 'agent' ? 'claude-code:bob' : undefined,
          })
        ).token,
      );
      const denied = await client.patch(settingsUrl(short), change);
      expect({ role, status: denied.status }).toEqual({ role, status: 403 });
      expect((await client.get(settingsUrl(short))).status).toBe(403);
    }
    // Another tenant's admin, with a valid change, is refused.
    const stranger = await plain.admin.patch(settingsUrl(short), change);
    expect(stranger.status).toBe(403);
    expect(stranger.body.error.code).toBe('wrong_tenant');
    expect((await api.client.patch(settingsUrl(short), change)).status).toBe(401);
    expect((await short.admin.get(settingsUrl(short))).body.retention).toEqual(before);
    // The other tenant's own setting is untouched by all of this.
    expect((await plain.admin.get(settingsUrl(plain))).body.retention.auditLogDays).toEqual({
      effective: 365,
      tenant: null,
      default: 365,
    });
  });
});
