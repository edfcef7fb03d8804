import { randomBytes, randomUUID } from 'node:crypto';
import { type TestingModule } from '@nestjs/testing';
import { envelopeKeyVersion } from '@cairn/encryption';
import { JobHandlers, JobsModule } from '@cairn/jobs';
import { ProjectsModule } from '@cairn/projects';
import { DataKeyRotation, SecretsWorkerModule } from '@cairn/secrets';
import { TenancyModule, TenantEntry, toTenantRef, TenantsService } from '@cairn/tenancy';
import { createDbTestingModule, issueToken, testConfig, testRedisUrl } from '@cairn/testing';
import { DataSource } from 'typeorm';
import { type ApiHarness, startApi } from './api-harness';
import { type MemoryWorld, memoryWorld, store } from './memory-fixtures';

const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const pick = (alphabet: string, n: number) => [...randomBytes(n)].map((b) => alphabet[b % alphabet.length]).join('');
// Synthetic but format-valid, a fresh value per call (the same value would share its placeholder id).
const githubToken = () => `ghp_${pick(ALNUM, 36)}`;
const awsKey = () => `AKIA${pick('ABCDEFGHIJKLMNOPQRSTUVWXYZ234567', 16)}`;
const PLACEHOLDER = /\[SECRET:([a-z0-9-]+):([A-Za-z0-9_-]+)\]/;

/** Issue 12 §2: a tenant's data key rotated by the platform admin, its sealed values re-sealed lazily. */
describe('data-key rotation with lazy re-encryption', () => {
  let api: ApiHarness;
  let w: MemoryWorld;
  let worker: TestingModule;
  let db: DataSource;
  const rotateUrl = (slug = w.tenant.slug) => `/v1/tenants/${slug}/data-key/rotate`;
  const statusUrl = (slug = w.tenant.slug) => `/v1/tenants/${slug}/data-key`;
  const reveal = (id: string) => w.agent.get(`/v1/projects/${w.project}/secrets/${id}`);
  const idIn = (text: string) => PLACEHOLDER.exec(text)![2];
  /** The data-key version of every stored copy of a placeholder's original. */
  const versionsOf = async (placeholderId: string) => {
    const rows = await db.query<{ value_encrypted: Buffer }[]>(
      `SELECT value_encrypted FROM "${w.tenant.schema}".secrets WHERE placeholder_id = $1`,
      [placeholderId],
    );
    expect(rows.length).toBeGreaterThan(0);
    return rows.map((row) => envelopeKeyVersion(row.value_encrypted));
  };
  const allVersions = async () =>
    (await db.query<{ value_encrypted: Buffer }[]>(`SELECT value_encrypted FROM "${w.tenant.schema}".secrets`)).map(
      (row) => envelopeKeyVersion(row.value_encrypted),
    );
  const keyVersions = async () =>
    (
      await db.query<{ version: number }[]>(
        'SELECT version FROM cairn.tenant_data_keys WHERE tenant_id = $1 ORDER BY version',
        [w.tenant.id],
      )
    ).map((row) => row.version);
  const runSweep = () =>
    worker
      .get(JobHandlers)
      .get('maintenance', 'data-key-reseal')!
      .handle({ tenantId: w.tenant.id } as never, {
        id: randomUUID(),
        attemptsMade: 0,
        queue: 'maintenance',
        name: 'data-key-reseal',
      });

  beforeAll(async () => {
    api = await startApi();
    w = await memoryWorld(api);
    db = api.app.get(DataSource);
    // A worker of its own: another replica, with its own key caches, as the sweep runs in production.
    worker = await createDbTestingModule(
      testConfig(api.database.url, testRedisUrl(), { QUEUE_PREFIX: `dk${randomBytes(4).toString('hex')}` }, 'worker'),
      [TenancyModule, ProjectsModule, JobsModule, SecretsWorkerModule],
    );
  });
  afterAll(async () => {
    await worker.close();
    await api.close();
  });

  it('rotates, re-seals on read and by the sweep, and keeps every key version', async () => {
    const values = [awsKey(), githubToken(), awsKey(), githubToken()];
    const ids: string[] = [];
    for (const value of values) {
      ids.push(idIn((await store(w.agent, w.project, { content: `deploy with ${value}` })).memory.content as string));
    }
    const sensitive = await store(w.agent, w.project, { content: 'Payroll runs on the 25th', sensitive: true });
    const sensitiveId = idIn(sensitive.memory.content as string);
    expect(await allVersions()).toEqual(Array(5).fill(1));

    const before = await api.admin.get(statusUrl());
    expect(before.status).toBe(200);
    expect(before.body).toEqual({
      currentVersion: 1,
      envelopes: 5,
      remaining: 0,
      byVersion: [{ version: 1, envelopes: 5 }],
    });

    const rotated = await api.admin.post(rotateUrl(), {});
    expect(rotated.status).toBe(200);
    expect(rotated.body).toMatchObject({ previousVersion: 1, currentVersion: 2, envelopes: 5, remaining: 5 });

    // New writes use the new version at once.
    const fresh = awsKey();
    const freshId = idIn((await store(w.agent, w.project, { content: `new key ${fresh}` })).memory.content as string);
    expect(await versionsOf(freshId)).toEqual([2]);
    expect((await reveal(freshId)).body.value).toBe(fresh);

    // Reading an old original returns it unchanged and moves its row to the new version.
    expect(await versionsOf(ids[0])).toEqual([1]);
    const read = await reveal(ids[0]);
    expect(read.status).toBe(200);
    expect(read.body.value).toBe(values[0]);
    expect(await versionsOf(ids[0])).toEqual([2]);
    expect((await reveal(ids[0])).body.value).toBe(values[0]);
    const sealedWhole = await reveal(sensitiveId);
    expect(sealedWhole.body.value).toBe('Payroll runs on the 25th');
    expect(await versionsOf(sensitiveId)).toEqual([2]);
    expect((await api.admin.get(statusUrl())).body).toMatchObject({ currentVersion: 2, envelopes: 6, remaining: 3 });

    // The sweep moves what nobody read, a bounded batch per run.
    const rotation = worker.get(DataKeyRotation, { strict: false });
    const tenant = toTenantRef(await worker.get(TenantsService, { strict: false }).getBySlug(w.tenant.slug));
    const first = await worker.get(TenantEntry, { strict: false }).run(tenant, () => rotation.sweep(2));
    expect(first).toEqual({ resealed: 2, failed: 0, skipped: 0, remaining: 1 });
    const last = await runSweep();
    expect(last).toEqual({
      status: 'done',
      counts: { resealed: 1, failed: 0, skipped: 0, remaining: 0 },
    });
    expect(await allVersions()).toEqual(Array(6).fill(2));
    for (const [index, id] of ids.entries()) expect((await reveal(id)).body.value).toBe(values[index]);
    expect((await runSweep()).counts).toEqual({ resealed: 0, failed: 0, skipped: 0, remaining: 0 });

    // Old versions stay: nothing deletes a key (a backup exported with ciphertext may name it).
    expect(await keyVersions()).toEqual([1, 2]);
    expect((await api.admin.get(statusUrl())).body).toEqual({
      currentVersion: 2,
      envelopes: 6,
      remaining: 0,
      byVersion: [{ version: 2, envelopes: 6 }],
    });
  });

  it('leaves an envelope that does not open where it is, reports it, and still moves the rest', async () => {
    const values = [awsKey(), awsKey()];
    const ids: string[] = [];
    for (const value of values) {
      ids.push(idIn((await store(w.agent, w.project, { content: `staging ${value}` })).memory.content as string));
    }
    expect((await api.admin.post(rotateUrl(), {})).body).toMatchObject({ previousVersion: 2, currentVersion: 3 });
    // A copy bound to one placeholder moved under another: it does not authenticate there.
    await db.query(
      `UPDATE "${w.tenant.schema}".secrets SET value_encrypted =
         (SELECT value_encrypted FROM "${w.tenant.schema}".secrets WHERE placeholder_id = $2 LIMIT 1)
       WHERE placeholder_id = $1`,
      [ids[0], ids[1]],
    );
    const report = await runSweep();
    expect(report.status).toBe('partial');
    expect(report.counts).toMatchObject({ failed: 1, remaining: 1 });
    expect(report.counts!.resealed).toBeGreaterThanOrEqual(1);
    expect(await versionsOf(ids[1])).toEqual([3]);
    expect((await reveal(ids[1])).body.value).toBe(values[1]);
    expect(await versionsOf(ids[0])).toEqual([2]);
    expect((await reveal(ids[0])).status).toBe(500);
    await db.query(`DELETE FROM "${w.tenant.schema}".secrets WHERE placeholder_id = $1`, [ids[0]]);
  });

  it('answers the read even when its row cannot be re-sealed, and leaves the row to the sweep', async () => {
    const value = githubToken();
    const id = idIn((await store(w.agent, w.project, { content: `ci ${value}` })).memory.content as string);
    const { currentVersion } = (await api.admin.post(rotateUrl(), {})).body as { currentVersion: number };
    const schema = `"${w.tenant.schema}"`;
    // The database refuses every update of the table, as a lost connection or a lock timeout would.
    await db.query(`CREATE FUNCTION ${schema}.refuse_update() RETURNS trigger LANGUAGE plpgsql AS
                      $$ BEGIN RAISE EXCEPTION 'updates refused by the test'; END $$`);
    await db.query(`CREATE TRIGGER refuse_update BEFORE UPDATE ON ${schema}.secrets
                      FOR EACH ROW EXECUTE FUNCTION ${schema}.refuse_update()`);
    try {
      const read = await reveal(id);
      expect(read.status).toBe(200);
      expect(read.body.value).toBe(value);
      expect(await versionsOf(id)).toEqual([currentVersion - 1]);
    } finally {
      await db.query(`DROP TRIGGER refuse_update ON ${schema}.secrets`);
      await db.query(`DROP FUNCTION ${schema}.refuse_update()`);
    }
    expect((await runSweep()).counts).toMatchObject({ failed: 0, remaining: 0 });
    expect(await versionsOf(id)).toEqual([currentVersion]);
    expect((await reveal(id)).body.value).toBe(value);
  });

  it('rotates a tenant that never sealed anything: its first key, with no previous version', async () => {
    const fresh = await api.admin.post('/v1/tenants', {
      slug: `fresh-${randomBytes(3).toString('hex')}`,
      name: 'Fresh',
    });
    expect(fresh.status).toBe(201);
    const rotated = await api.admin.post(rotateUrl(fresh.body.slug), {});
    expect(rotated.status).toBe(200);
    expect(rotated.body).toMatchObject({ previousVersion: null, currentVersion: 1, envelopes: 0, remaining: 0 });
    expect((await api.admin.post(rotateUrl(fresh.body.slug), {})).body).toMatchObject({
      previousVersion: 1,
      currentVersion: 2,
    });
  });

  it('is for the platform admin only: 403 for tenant tokens, 404 for an unknown tenant; audited', async () => {
    const versions = await keyVersions();
    const agentToken = (await issueToken(api.admin, w.tenant.slug, { role: 'agent', projects: [w.project] })).token;
    for (const client of [w.admin, api.client.as(agentToken)]) {
      const denied = await client.post(rotateUrl(), {});
      expect(denied.status).toBe(403);
      expect((await client.get(statusUrl())).status).toBe(403);
    }
    expect(await keyVersions()).toEqual(versions);
    expect((await api.client.post(rotateUrl(), {})).status).toBe(401);
    expect((await api.admin.post(rotateUrl('no-such-tenant'), {})).status).toBe(404);
    expect((await api.admin.get(statusUrl('no-such-tenant'))).status).toBe(404);

    const rotated = await api.admin.post(rotateUrl(), {});
    expect(rotated.status).toBe(200);
    const audit = await api.admin.get('/v1/audit?limit=100');
    expect(audit.status).toBe(200);
    const entries = audit.body.items.filter((entry: { action: string }) => entry.action === 'tenant.data_key.rotate');
    expect(entries).toContainEqual(
      expect.objectContaining({
        actor: 'platform-admin',
        outcome: 'success',
        status: 200,
        tenantId: w.tenant.id,
        target: rotateUrl(),
        requestId: rotated.headers['x-request-id'],
      }),
    );
    // The tenant's own log has the rotation, and its admin's refused attempt.
    const own = await db.query<{ actor: string; outcome: string }[]>(
      `SELECT actor, outcome FROM "${w.tenant.schema}".audit_log WHERE action = 'tenant.data_key.rotate'`,
    );
    expect(own).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ actor: 'platform-admin', outcome: 'success' }),
        expect.objectContaining({ outcome: 'denied' }),
      ]),
    );
  });
});
