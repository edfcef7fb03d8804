import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { type LoggerService } from '@nestjs/common';
import { type TestingModule } from '@nestjs/testing';
import { createDbTestingModule, createTestDatabase, type TestDatabase, testConfig, testRedisUrl } from '@cairn/testing';
import { DataSource } from 'typeorm';
import { EncryptionError } from './encryption-error';
import { EncryptionModule } from './encryption.module';
import { EnvelopeEncryption } from './envelope-encryption.service';
import { parseEnvelope } from './envelope-format';
import { MasterKeyring, masterKeyId } from './master-keyring';

/** Everything the services log, to prove no key or plaintext is among it. */
const logs: string[] = [];
const capture: LoggerService = {
  log: (message: unknown) => logs.push(String(message)),
  error: (message: unknown, ...rest: unknown[]) => logs.push([message, ...rest].map(String).join(' ')),
  warn: (message: unknown) => logs.push(String(message)),
  debug: (message: unknown) => logs.push(String(message)),
  verbose: (message: unknown) => logs.push(String(message)),
};
/** Every error message the tests provoked. */
const messages: string[] = [];

async function failure(promise: Promise<unknown>): Promise<EncryptionError> {
  const error = await promise.then(
    () => new Error('expected a rejection'),
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(EncryptionError);
  messages.push((error as Error).message);
  return error as EncryptionError;
}

const spellings = (key: Buffer) => [key.toString('base64'), key.toString('hex'), key.toString('base64url')];

describe('envelope encryption of tenant data (integration)', () => {
  let database: TestDatabase;
  const modules: TestingModule[] = [];
  const masterA = randomBytes(32);
  const masterB = randomBytes(32);
  let dataSource: DataSource;
  let encryption: EnvelopeEncryption;

  /** A process of its own (own pool, own caches), like another replica, with these master keys. */
  async function replica(current: Buffer, previous?: Buffer): Promise<EnvelopeEncryption> {
    const keys: Record<string, string> = { CAIRN_MASTER_KEY: current.toString('base64') };
    if (previous) keys.CAIRN_MASTER_KEY_PREVIOUS = previous.toString('hex');
    const config = testConfig(database.url, testRedisUrl(), keys, 'keys');
    const moduleRef = await createDbTestingModule(config, [EncryptionModule], (builder) => builder.setLogger(capture));
    modules.push(moduleRef);
    return moduleRef.get(EnvelopeEncryption);
  }

  async function createTenant(options: { deleted?: boolean } = {}): Promise<string> {
    const id = randomUUID();
    const compact = id.replace(/-/g, '');
    await dataSource.query(
      `INSERT INTO cairn.tenants (id, slug, name, schema_name, deleted_at) VALUES ($1, $2, $3, $4, $5)`,
      [id, `enc-${compact.slice(0, 12)}`, 'Encryption test', `t_${compact}`, options.deleted ? new Date() : null],
    );
    return id;
  }

  const keyRows = (tenantId: string) =>
    dataSource.query<{ version: number; master_key_id: string; wrapped_key: Buffer }[]>(
      `SELECT version, master_key_id, wrapped_key FROM cairn.tenant_data_keys WHERE tenant_id = $1 ORDER BY version`,
      [tenantId],
    );

  const place = (field = 'content', rowId: string = randomUUID()) => ({ table: 'memories', rowId, field });

  beforeAll(async () => {
    database = await createTestDatabase();
    encryption = await replica(masterA);
    dataSource = modules[0].get(DataSource);
  });

  afterAll(async () => {
    for (const moduleRef of modules) await moduleRef.close();
    await database.drop();
  });

  it('round-trips text and bytes through a bytea column, creating the data key on first use', async () => {
    const tenant = await createTenant();
    expect(await keyRows(tenant)).toHaveLength(0);
    const where = place();
    const secret = 'ghp_0123456789abcdefghijklmnopqrstuvwxyzAB';
    const envelope = await encryption.encrypt(tenant, where, secret);
    expect(envelope.includes(Buffer.from(secret))).toBe(false);

    await dataSource.query('CREATE TABLE sealed (id uuid PRIMARY KEY, content bytea NOT NULL)');
    await dataSource.query('INSERT INTO sealed VALUES ($1, $2)', [where.rowId, envelope]);
    const [row] = await dataSource.query<{ content: Buffer }[]>('SELECT content FROM sealed WHERE id = $1', [
      where.rowId,
    ]);
    expect(await encryption.decryptText(tenant, where, row.content)).toBe(secret);

    const bytes = randomBytes(1_000);
    const sealedBytes = await encryption.encrypt(tenant, place('attachment', where.rowId), bytes);
    expect((await encryption.decrypt(tenant, place('attachment', where.rowId), sealedBytes)).equals(bytes)).toBe(true);

    const keys = await keyRows(tenant);
    expect(keys).toHaveLength(1);
    expect(keys[0]).toMatchObject({ version: 1, master_key_id: masterKeyId(masterA) });
    // Another replica, with nothing cached, reads it through the stored key.
    expect(await (await replica(masterA)).decryptText(tenant, where, envelope)).toBe(secret);
  });

  it('does not decrypt an envelope moved to another row, field, table or tenant', async () => {
    const tenant = await createTenant();
    const other = await createTenant();
    const where = place();
    const envelope = await encryption.encrypt(tenant, where, 'sk-live-moved-around');
    await encryption.encrypt(other, place(), 'gives the other tenant a data key v1 too');

    for (const [target, binding] of [
      [tenant, { ...where, rowId: randomUUID() }],
      [tenant, { ...where, field: 'summary' }],
      [tenant, { ...where, table: 'kb_chunks' }],
      [other, where],
    ] as const) {
      expect((await failure(encryption.decrypt(target, binding, envelope))).code).toBe('decryption_failed');
    }
    expect(await encryption.decryptText(tenant, where, envelope)).toBe('sk-live-moved-around');
  });

  it('does not decrypt an envelope with a flipped bit', async () => {
    const tenant = await createTenant();
    const where = place();
    const envelope = await encryption.encrypt(tenant, where, 'AKIAIOSFODNN7EXAMPLE');
    for (const byte of [5, 20, 31, envelope.length - 1]) {
      const altered = Buffer.from(envelope);
      altered[byte] ^= 0x04;
      expect((await failure(encryption.decrypt(tenant, where, altered))).code).toBe('decryption_failed');
    }
    // A flipped version byte names a data key the tenant does not have.
    const otherVersion = Buffer.from(envelope);
    otherVersion[1] ^= 0x01;
    expect((await failure(encryption.decrypt(tenant, where, otherVersion))).code).toBe('unknown_data_key');
    expect((await failure(encryption.decrypt(tenant, where, Buffer.from('plain')))).code).toBe('malformed_envelope');
  });

  it('refuses under the wrong master key with an error naming both fingerprints, and creates no key over it', async () => {
    const tenant = await createTenant();
    const where = place();
    const envelope = await encryption.encrypt(tenant, where, 'xoxb-wrong-master-key');
    const wrong = await replica(masterB);

    for (const attempt of [() => wrong.decrypt(tenant, where, envelope), () => wrong.encrypt(tenant, place(), 'v')]) {
      const error = await failure(attempt());
      expect(error.code).toBe('master_key_unavailable');
      expect(error.message).toContain(`wrapped by master key ${masterKeyId(masterA)}`);
      expect(error.message).toContain(`CAIRN_MASTER_KEY (${masterKeyId(masterB)})`);
    }
    expect(await keyRows(tenant)).toHaveLength(1);
    // With the right key as the previous one (mid-rotation), it reads again.
    expect(await (await replica(masterB, masterA)).decryptText(tenant, where, envelope)).toBe('xoxb-wrong-master-key');
  });

  it('creates exactly one data key when two replicas use a new tenant at the same moment', async () => {
    const tenant = await createTenant();
    const [first, second] = [await replica(masterA), await replica(masterA)];
    const writes = Array.from({ length: 20 }, (_, i) => {
      const where = place('content', `row-${i}`);
      return (i % 2 === 0 ? first : second)
        .encrypt(tenant, where, `value ${i}`)
        .then((envelope) => ({ where, envelope }));
    });
    const sealed = await Promise.all(writes);
    expect(await keyRows(tenant)).toHaveLength(1);
    for (const [i, { where, envelope }] of sealed.entries()) {
      expect(await first.decryptText(tenant, where, envelope)).toBe(`value ${i}`);
      expect(await second.decryptText(tenant, where, envelope)).toBe(`value ${i}`);
    }
  });

  it('refuses a tenant that does not exist or is deleted, and a malformed tenant id', async () => {
    for (const tenant of [randomUUID(), await createTenant({ deleted: true })]) {
      expect((await failure(encryption.encrypt(tenant, place(), 'x'))).code).toBe('unknown_tenant');
      expect(await keyRows(tenant)).toHaveLength(0);
    }
    expect((await failure(encryption.encrypt('acme', place(), 'x'))).code).toBe('invalid_binding');
  });

  it('rotates a data key: new writes use the new version, old envelopes stay readable and are flagged', async () => {
    const tenant = await createTenant();
    const bystander = await createTenant();
    const where = place();
    const old = await encryption.encrypt(tenant, where, 'written under v1');
    const untouched = await encryption.encrypt(bystander, where, 'other tenant');

    expect(await encryption.rotateDataKey(tenant)).toBe(2);
    const fresh = await encryption.encrypt(tenant, where, 'written under v2');
    expect([parseEnvelope(old).keyVersion, parseEnvelope(fresh).keyVersion]).toEqual([1, 2]);
    expect(await encryption.needsReencryption(tenant, old)).toBe(true);
    expect(await encryption.needsReencryption(tenant, fresh)).toBe(false);
    expect(await encryption.decryptText(tenant, where, old)).toBe('written under v1');
    expect(await encryption.decryptText(tenant, where, fresh)).toBe('written under v2');

    // What a caller does with a flagged value: seal it again under the current version, same place.
    expect(await encryption.currentKeyVersion(tenant)).toBe(2);
    const resealed = (await encryption.reseal(tenant, where, old))!;
    expect(parseEnvelope(resealed).keyVersion).toBe(2);
    expect(await encryption.needsReencryption(tenant, resealed)).toBe(false);
    expect(await encryption.decryptText(tenant, where, resealed)).toBe('written under v1');
    expect(await encryption.reseal(tenant, where, fresh)).toBeNull();
    // Re-sealing authenticates first: an envelope of another place is refused, not laundered.
    expect((await failure(encryption.reseal(tenant, place(), old))).code).toBe('decryption_failed');

    // Two replicas rotating at once: no conflict error, no gap; racing for one number makes one version.
    const [first, second] = [await replica(masterA), await replica(masterA)];
    const rotated = await Promise.all([first.rotateDataKey(tenant), second.rotateDataKey(tenant)]);
    const versions = (await keyRows(tenant)).map((row) => row.version);
    expect(versions).toEqual(Array.from({ length: versions.length }, (_, i) => i + 1));
    expect([3, 4]).toContain(versions.length);
    for (const version of rotated) expect(version).toBeGreaterThanOrEqual(3);
    expect(Math.max(...rotated)).toBe(versions.length);
    expect(await first.decryptText(tenant, where, old)).toBe('written under v1');

    expect(await encryption.needsReencryption(bystander, untouched)).toBe(false);
    expect((await keyRows(bystander)).map((row) => row.version)).toEqual([1]);
  });

  it('lets a replica that lags behind a rotation elsewhere ask for the current version afresh', async () => {
    const tenant = await createTenant();
    const [rotating, lagging] = [await replica(masterA), await replica(masterA)];
    const where = place();
    expect(await lagging.currentKeyVersion(tenant)).toBe(1);
    expect(await rotating.rotateDataKey(tenant)).toBe(2);
    // Within CURRENT_VERSION_TTL_MS the other replica still writes with v1 (readable, flagged later)...
    expect(await lagging.currentKeyVersion(tenant)).toBe(1);
    expect(parseEnvelope(await lagging.encrypt(tenant, where, 'x')).keyVersion).toBe(1);
    // ...unless it asks afresh, which also moves its own writes to v2.
    expect(await lagging.currentKeyVersion(tenant, { fresh: true })).toBe(2);
    expect(parseEnvelope(await lagging.encrypt(tenant, where, 'x')).keyVersion).toBe(2);
  });

  it('gives keyed digests stable across data-key rotations and replicas, distinct per tenant and purpose', async () => {
    const tenant = await createTenant();
    const other = await createTenant();
    const value = 'AKIA2E4AYF3B7C5DQGQW';
    const before = (await encryption.keyedDigester(tenant, 'secret-placeholder-id'))(value);
    await encryption.rotateDataKey(tenant);
    const after = (await (await replica(masterA)).keyedDigester(tenant, 'secret-placeholder-id'))(value);
    expect(after.equals(before)).toBe(true);
    expect(before).toHaveLength(32);
    const elsewhere = (await encryption.keyedDigester(other, 'secret-placeholder-id'))(value);
    const otherPurpose = (await encryption.keyedDigester(tenant, 'another-purpose'))(value);
    // Not a plain hash: without the tenant's key a guessed value cannot be confirmed.
    const plain = createHash('sha256').update(value).digest();
    for (const digest of [elsewhere, otherPurpose, plain]) expect(digest.equals(before)).toBe(false);
  });

  it('keeps keys and plaintext out of logs and error messages', async () => {
    const rows = await dataSource.query<{ tenant_id: string; version: number; wrapped_key: Buffer }[]>(
      `SELECT tenant_id, version, wrapped_key FROM cairn.tenant_data_keys WHERE master_key_id = $1`,
      [masterKeyId(masterA)],
    );
    const keyring = new MasterKeyring(masterA);
    const dataKeys = rows.map((row) =>
      keyring.unwrap({
        tenantId: row.tenant_id,
        version: row.version,
        wrappedKey: row.wrapped_key,
        masterKeyId: masterKeyId(masterA),
      }),
    );
    expect(dataKeys.length).toBeGreaterThan(5);
    expect(messages.length).toBeGreaterThan(10);
    expect(logs.some((line) => line.includes('now encrypts new values'))).toBe(true);
    const forbidden = [
      ...spellings(masterA),
      ...spellings(masterB),
      ...dataKeys.flatMap(spellings),
      'ghp_0123456789',
      'sk-live-moved-around',
      'AKIAIOSFODNN7EXAMPLE',
      'xoxb-wrong-master-key',
    ];
    for (const text of [...logs, ...messages]) {
      for (const secret of forbidden) expect(text).not.toContain(secret);
    }
  });
});
