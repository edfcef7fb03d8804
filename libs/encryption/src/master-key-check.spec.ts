import { randomBytes, randomUUID } from 'node:crypto';
import { type LoggerService } from '@nestjs/common';
import { type TestingModule } from '@nestjs/testing';
import { createDbTestingModule, createTestDatabase, type TestDatabase, testConfig, testRedisUrl } from '@cairn/testing';
import { DataSource } from 'typeorm';
import { PLATFORM_SCOPE } from './contract/encryption.types';
import { EncryptionModule } from './encryption.module';
import { EnvelopeEncryption } from './envelope-encryption.service';
import { masterKeyId } from './master-keyring';

const spellings = (key: Buffer) => [key.toString('base64'), key.toString('hex'), key.toString('base64url')];

describe('the master-key check at start (integration)', () => {
  let database: TestDatabase;
  const modules: TestingModule[] = [];
  const logs: string[] = [];
  const capture: LoggerService = {
    log: (message: unknown) => logs.push(String(message)),
    error: (message: unknown) => logs.push(String(message)),
    warn: (message: unknown) => logs.push(String(message)),
  };
  const [masterA, masterB, masterC] = [randomBytes(32), randomBytes(32), randomBytes(32)];

  /** Starts EncryptionModule as the api does (lifecycle hooks and all) with these master keys. */
  async function start(current: Buffer, previous?: Buffer, app: 'api' | 'worker' | 'keys' = 'api') {
    const keys: Record<string, string> = { CAIRN_MASTER_KEY: current.toString('base64') };
    if (previous) keys.CAIRN_MASTER_KEY_PREVIOUS = previous.toString('base64');
    const moduleRef = await createDbTestingModule(
      testConfig(database.url, testRedisUrl(), keys, app),
      [EncryptionModule],
      (builder) => builder.setLogger(capture),
    );
    modules.push(moduleRef);
    return moduleRef;
  }

  async function failure(attempt: Promise<unknown>): Promise<Error> {
    const outcome = await attempt.then(
      () => new Error('expected the start to fail'),
      (error: unknown) => error as Error,
    );
    expect(outcome.message).not.toBe('expected the start to fail');
    return outcome;
  }

  async function createTenant(dataSource: DataSource): Promise<string> {
    const id = randomUUID();
    const compact = id.replace(/-/g, '');
    await dataSource.query(`INSERT INTO cairn.tenants (id, slug, name, schema_name) VALUES ($1, $2, $3, $4)`, [
      id,
      `mk-${compact.slice(0, 12)}`,
      'Boot check test',
      `t_${compact}`,
    ]);
    return id;
  }

  beforeAll(async () => {
    database = await createTestDatabase();
  });

  afterAll(async () => {
    for (const moduleRef of modules) await moduleRef.close();
    await database.drop();
  });

  it('starts a fresh install, and refuses a key that cannot unwrap the stored data keys, naming the fingerprints', async () => {
    const fresh = await start(masterA);
    expect(logs.some((line) => line.includes(`master key ${masterKeyId(masterA)}`) && line.includes('none yet'))).toBe(
      true,
    );
    const dataSource = fresh.get(DataSource);
    const encryption = fresh.get(EnvelopeEncryption);
    for (let i = 0; i < 2; i += 1) {
      await encryption.encrypt(
        await createTenant(dataSource),
        { table: 'memories', rowId: 'r1', field: 'content' },
        'x',
      );
    }

    for (const app of ['api', 'worker'] as const) {
      const error = await failure(start(masterB, undefined, app));
      expect(error.message).toContain('refusing to start: 2 stored data key(s) are wrapped by master key(s)');
      expect(error.message).toContain(masterKeyId(masterA));
      expect(error.message).toContain(`CAIRN_MASTER_KEY is ${masterKeyId(masterB)}`);
      for (const secret of [...spellings(masterA), ...spellings(masterB)]) expect(error.message).not.toContain(secret);
    }
    // The wrong key as the previous one does not help either; the one that wrapped them does.
    expect((await failure(start(masterB, masterC))).message).toContain(masterKeyId(masterA));
    await start(masterB, masterA);
    expect(logs.some((line) => line.includes(`previous ${masterKeyId(masterA)}`) && line.includes('2 under'))).toBe(
      true,
    );
    await start(masterA);
    // The rotation tool starts whatever it holds: its report names the tenants it cannot re-wrap.
    await start(masterC, undefined, 'keys');
  });

  it('starts on a database not migrated yet (the apps come up not ready until npm run migrate)', async () => {
    const unmigrated = await createTestDatabase({ migrated: false });
    try {
      const moduleRef = await createDbTestingModule(
        testConfig(unmigrated.url, testRedisUrl(), { CAIRN_MASTER_KEY: masterB.toString('base64') }),
        [EncryptionModule],
        (builder) => builder.setLogger(capture),
      );
      await moduleRef.close();
      expect(logs.some((line) => line.includes('control schema not migrated yet'))).toBe(true);
    } finally {
      await unmigrated.drop();
    }
  });

  it('refuses a stored data key that does not unwrap under the master key it names', async () => {
    const dataSource = modules[0].get(DataSource);
    await dataSource.query(
      `UPDATE cairn.tenant_data_keys SET wrapped_key = set_byte(wrapped_key, 40, get_byte(wrapped_key, 40) # 1)`,
    );
    const error = await failure(start(masterA));
    expect(error.message).toContain('does not unwrap under CAIRN_MASTER_KEY');
  });

  it("checks the platform's own data keys like the tenants'", async () => {
    const own = await createTestDatabase();
    const started: TestingModule[] = [];
    const startOn = async (current: Buffer) => {
      const moduleRef = await createDbTestingModule(
        testConfig(own.url, testRedisUrl(), { CAIRN_MASTER_KEY: current.toString('base64') }),
        [EncryptionModule],
        (builder) => builder.setLogger(capture),
      );
      started.push(moduleRef);
      return moduleRef;
    };
    try {
      const first = await startOn(masterA);
      await first
        .get(EnvelopeEncryption)
        .encrypt(PLATFORM_SCOPE, { table: 'accounts', rowId: randomUUID(), field: 'totp_secret' }, 'x');
      const lacking = await failure(startOn(masterB));
      expect(lacking.message).toContain(`1 stored data key(s) are wrapped by master key(s) ${masterKeyId(masterA)}`);
      await first
        .get(DataSource)
        .query(
          `UPDATE cairn.platform_data_keys SET wrapped_key = set_byte(wrapped_key, 40, get_byte(wrapped_key, 40) # 1)`,
        );
      const corrupt = await failure(startOn(masterA));
      expect(corrupt.message).toContain("the platform's data key v1 does not unwrap under CAIRN_MASTER_KEY");
    } finally {
      for (const moduleRef of started) await moduleRef.close();
      await own.drop();
    }
  });
});
