import { randomBytes, randomUUID } from 'node:crypto';
import { type TestingModule } from '@nestjs/testing';
import { LOCK_NAMESPACE } from '@cairn/db';
import { createDbTestingModule, createTestDatabase, type TestDatabase, testConfig, testRedisUrl } from '@cairn/testing';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import {
  type FieldBinding,
  type KeyRotationOutcome,
  PLATFORM_SCOPE,
  type RotationListener,
  type TenantRotationReport,
} from './contract/encryption.types';
import { KEY_ROTATION_LOCK_ID } from './data-keys.repository';
import { type EncryptionError } from './encryption-error';
import { EncryptionModule } from './encryption.module';
import { EnvelopeEncryption } from './envelope-encryption.service';
import { MasterKeyRotation } from './master-key-rotation.service';
import { masterKeyId } from './master-keyring';

interface Sealed {
  readonly tenantId: string;
  readonly where: FieldBinding;
  readonly envelope: Buffer;
  readonly plaintext: string;
}

const quiet: RotationListener = { waiting: () => undefined, tenantDone: () => undefined };
const spellings = (key: Buffer) => [key.toString('base64'), key.toString('hex'), key.toString('base64url')];

describe('master-key rotation, npm run keys:rotate (integration)', () => {
  let database: TestDatabase;
  const modules: TestingModule[] = [];
  const oldKey = randomBytes(32);
  const newKey = randomBytes(32);
  const strangerKey = randomBytes(32);
  let dataSource: DataSource;
  const sealed: Sealed[] = [];

  /** A fresh process (own pool and caches) with these master keys. */
  async function processWith(current: Buffer, previous?: Buffer): Promise<TestingModule> {
    const keys: Record<string, string> = { CAIRN_MASTER_KEY: current.toString('base64') };
    if (previous) keys.CAIRN_MASTER_KEY_PREVIOUS = previous.toString('base64');
    const moduleRef = await createDbTestingModule(testConfig(database.url, testRedisUrl(), keys, 'keys'), [
      EncryptionModule,
    ]);
    modules.push(moduleRef);
    return moduleRef;
  }
  const encryptionWith = async (current: Buffer, previous?: Buffer) =>
    (await processWith(current, previous)).get(EnvelopeEncryption);
  const rotationWith = async (current: Buffer, previous?: Buffer) =>
    (await processWith(current, previous)).get(MasterKeyRotation);

  async function createTenant(): Promise<string> {
    const id = randomUUID();
    const compact = id.replace(/-/g, '');
    await dataSource.query(`INSERT INTO cairn.tenants (id, slug, name, schema_name) VALUES ($1, $2, $3, $4)`, [
      id,
      `rot-${compact.slice(0, 12)}`,
      'Rotation test',
      `t_${compact}`,
    ]);
    return id;
  }

  async function seal(encryption: EnvelopeEncryption, tenantId: string, plaintext: string): Promise<Sealed> {
    const where = { table: 'memories', rowId: randomUUID(), field: 'content' };
    const item = { tenantId, where, envelope: await encryption.encrypt(tenantId, where, plaintext), plaintext };
    sealed.push(item);
    return item;
  }

  /** Tenant id → the master-key fingerprints of its data keys. */
  async function wrappings(): Promise<Map<string, string[]>> {
    const rows = await dataSource.query<{ tenant_id: string; ids: string[] }[]>(
      `SELECT tenant_id, array_agg(master_key_id ORDER BY version) AS ids FROM cairn.tenant_data_keys GROUP BY tenant_id`,
    );
    return new Map(rows.map((row) => [row.tenant_id, row.ids]));
  }

  /** Which sealed values a process decrypts, and the error codes of those it does not. */
  async function readAll(encryption: EnvelopeEncryption, items: readonly Sealed[] = sealed) {
    return Promise.all(
      items.map((item) =>
        encryption.decryptText(item.tenantId, item.where, item.envelope).then(
          (text) => (text === item.plaintext ? 'ok' : 'wrong plaintext'),
          (error: EncryptionError) => error.code,
        ),
      ),
    );
  }

  beforeAll(async () => {
    database = await createTestDatabase();
    const before = await processWith(oldKey);
    dataSource = before.get(DataSource);
    const encryption = before.get(EnvelopeEncryption);
    for (let i = 0; i < 6; i += 1) {
      const tenant = await createTenant();
      await seal(encryption, tenant, `tenant ${i} value one`);
      // Some tenants have rotated their data key: every version is re-wrapped.
      if (i % 2 === 0) await encryption.rotateDataKey(tenant);
      await seal(encryption, tenant, `tenant ${i} value two`);
    }
    // A deleted tenant keeps its keys until its rows go: they are re-wrapped too.
    const deleted = await createTenant();
    await seal(encryption, deleted, 'deleted tenant value');
    await dataSource.query('UPDATE cairn.tenants SET deleted_at = now() WHERE id = $1', [deleted]);
  });

  afterAll(async () => {
    for (const moduleRef of modules) await moduleRef.close();
    await database.drop();
  });

  it('re-wraps every tenant, resumes after an interruption, and keeps data readable throughout', async () => {
    const tenants = [...new Set(sealed.map((item) => item.tenantId))].sort();
    const everyOk = sealed.map(() => 'ok');
    expect(await readAll(await encryptionWith(newKey, oldKey))).toEqual(everyOk);

    // The first run dies after three tenants, as a killed pod would.
    const done: string[] = [];
    const crashing: RotationListener = {
      waiting: () => undefined,
      tenantDone: (report) => {
        done.push(report.tenantId);
        if (done.length === 3) throw new Error('simulated crash');
      },
    };
    await expect((await rotationWith(newKey, oldKey)).run(crashing)).rejects.toThrow('simulated crash');
    expect(done).toEqual(tenants.slice(0, 3));
    const midway = await wrappings();
    for (const tenant of tenants) {
      const expected = done.includes(tenant) ? masterKeyId(newKey) : masterKeyId(oldKey);
      expect(midway.get(tenant)!.every((id) => id === expected)).toBe(true);
    }

    // Midway, a process holding both keys reads everything; one holding either key alone does not.
    expect(await readAll(await encryptionWith(newKey, oldKey))).toEqual(everyOk);
    const rotatedFirst = (item: Sealed) => done.includes(item.tenantId);
    expect(await readAll(await encryptionWith(newKey))).toEqual(
      sealed.map((item) => (rotatedFirst(item) ? 'ok' : 'master_key_unavailable')),
    );
    expect(await readAll(await encryptionWith(oldKey))).toEqual(
      sealed.map((item) => (rotatedFirst(item) ? 'master_key_unavailable' : 'ok')),
    );

    // Run again: it carries on where the first stopped (the lock was released with it).
    const lines: TenantRotationReport[] = [];
    const resumed = await (await rotationWith(newKey, oldKey)).run({ ...quiet, tenantDone: (r) => lines.push(r) });
    expect(resumed).toMatchObject({
      masterKeyId: masterKeyId(newKey),
      previousMasterKeyId: masterKeyId(oldKey),
      failed: 0,
      remaining: 0,
    });
    expect(lines.map((report) => report.tenantId)).toEqual(tenants);
    expect(resumed.tenants.map((report) => report.status)).toEqual(
      tenants.map((tenant) => (done.includes(tenant) ? 'up-to-date' : 'rotated')),
    );
    const keysOf = (tenant: string) => midway.get(tenant)!.length;
    const expectedRewraps = tenants.filter((t) => !done.includes(t)).reduce((sum, t) => sum + keysOf(t), 0);
    expect(resumed.rewrapped).toBe(expectedRewraps);
    expect(resumed.tenants.find((report) => report.deleted)).toMatchObject({ slug: expect.stringMatching(/^rot-/) });

    // Idempotent: a third run finds nothing to do.
    const again = await (await rotationWith(newKey, oldKey)).run(quiet);
    expect(again).toMatchObject({ rewrapped: 0, failed: 0, remaining: 0 });
    expect(again.tenants.every((report) => report.status === 'up-to-date')).toBe(true);

    // Done: the new key alone reads everything, the old key nothing; the ciphertexts never changed.
    expect(await readAll(await encryptionWith(newKey))).toEqual(everyOk);
    expect(new Set(await readAll(await encryptionWith(oldKey)))).toEqual(new Set(['master_key_unavailable']));
  });

  it('reports a tenant wrapped by a master key it was not given, by fingerprint, and rotates the rest', async () => {
    const stranger = await createTenant();
    await seal(await encryptionWith(strangerKey), stranger, 'sealed under a key nobody gave the rotation');
    const mine = await createTenant();
    await seal(await encryptionWith(oldKey), mine, 'sealed under the old key');

    const report = await (await rotationWith(newKey, oldKey)).run(quiet);
    const failed = report.tenants.find((tenant) => tenant.tenantId === stranger)!;
    expect(failed.status).toBe('failed');
    expect(failed.error).toContain(`wrapped by master key ${masterKeyId(strangerKey)}`);
    expect(report.tenants.find((tenant) => tenant.tenantId === mine)).toMatchObject({
      status: 'rotated',
      rewrapped: 1,
    });
    expect(report).toMatchObject({ failed: 1, remaining: 1 });
    const printed = JSON.stringify(report);
    for (const secret of [...spellings(oldKey), ...spellings(newKey), ...spellings(strangerKey)]) {
      expect(printed).not.toContain(secret);
    }
  });

  it("re-wraps the platform's own data keys too, after the tenants', and reports them apart", async () => {
    const before = await encryptionWith(oldKey);
    const where = { table: 'accounts', rowId: randomUUID(), field: 'totp_secret' };
    const first = await before.encrypt(PLATFORM_SCOPE, where, 'operator secret one');
    await before.rotateDataKey(PLATFORM_SCOPE);
    const second = await before.encrypt(PLATFORM_SCOPE, where, 'operator secret two');
    const read = async (encryption: EnvelopeEncryption) =>
      Promise.all(
        [first, second].map((envelope) =>
          encryption.decryptText(PLATFORM_SCOPE, where, envelope).catch((error: EncryptionError) => error.code),
        ),
      );
    // Bound to the platform: no tenant's keys open it.
    const tenant = await createTenant();
    await before.encrypt(tenant, where, 'a tenant value: its data key v1 exists');
    await expect((await encryptionWith(oldKey)).decrypt(tenant, where, first)).rejects.toMatchObject({
      code: 'decryption_failed',
    });

    const order: string[] = [];
    let platformDone: KeyRotationOutcome | undefined;
    const report = await (
      await rotationWith(newKey, oldKey)
    ).run({
      waiting: () => undefined,
      tenantDone: (done) => order.push(done.tenantId),
      platformDone: (done) => {
        order.push('platform');
        platformDone = done;
      },
    });
    expect(order.at(-1)).toBe('platform');
    expect(report.platform).toMatchObject({ keys: 2, rewrapped: 2, alreadyCurrent: 0, status: 'rotated' });
    expect(platformDone).toEqual(report.platform);
    expect(report.tenants.map((done) => done.tenantId)).not.toContain(PLATFORM_SCOPE);
    const keys = await dataSource.query<{ master_key_id: string }[]>(
      'SELECT master_key_id FROM cairn.platform_data_keys ORDER BY version',
    );
    expect(keys.map((key) => key.master_key_id)).toEqual([masterKeyId(newKey), masterKeyId(newKey)]);
    expect(await read(await encryptionWith(newKey))).toEqual(['operator secret one', 'operator secret two']);
    expect(await read(await encryptionWith(oldKey))).toEqual(['master_key_unavailable', 'master_key_unavailable']);
    const again = await (await rotationWith(newKey, oldKey)).run(quiet);
    expect(again.platform).toMatchObject({ keys: 2, rewrapped: 0, status: 'up-to-date' });
  });

  it('waits for a rotation already running, and says so', async () => {
    const holder = new Client({ connectionString: database.url });
    await holder.connect();
    try {
      await holder.query('SELECT pg_advisory_lock($1, $2)', [LOCK_NAMESPACE, KEY_ROTATION_LOCK_ID]);
      let waited = false;
      let finished = false;
      const run = (await rotationWith(newKey, oldKey))
        .run({ ...quiet, waiting: () => (waited = true) })
        .finally(() => (finished = true));
      await new Promise((wake) => setTimeout(wake, 500));
      expect({ waited, finished }).toEqual({ waited: true, finished: false });
      await holder.query('SELECT pg_advisory_unlock($1, $2)', [LOCK_NAMESPACE, KEY_ROTATION_LOCK_ID]);
      await expect(run).resolves.toMatchObject({ masterKeyId: masterKeyId(newKey) });
    } finally {
      await holder.end();
    }
  });
});
