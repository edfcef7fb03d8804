import { randomBytes, randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { type TestingModule } from '@nestjs/testing';
import { EncryptionModule, EnvelopeEncryption, envelopeKeyVersion } from '@cairn/encryption';
import { ChildApp, childEnvironment, REPO_ROOT } from '@cairn/process-harness';
import { TenancyModule, type TenantEntity, TenantsService } from '@cairn/tenancy';
import { createDbTestingModule, createTestDatabase, type TestDatabase, testConfig, testRedisUrl } from '@cairn/testing';
import { DataSource } from 'typeorm';

/** `npm run keys:rotate -- --data-key <slug>` as an operator runs it: the built script. */
const SCRIPT = 'dist/tools/keys/rotate.js';

describe('npm run keys:rotate -- --data-key <tenant>', () => {
  let database: TestDatabase;
  let moduleRef: TestingModule;
  let tenant: TenantEntity;
  const masterKey = randomBytes(32);

  async function rotate(...args: string[]) {
    const env = childEnvironment({ DATABASE_URL: database.url, CAIRN_MASTER_KEY: masterKey.toString('base64') });
    const child = new ChildApp('keys:rotate', SCRIPT, env, args);
    const status = await child.waitForExit(60_000);
    expect(child.output()).not.toContain(masterKey.toString('base64'));
    return { ...status, stdout: child.stdout, stderr: child.stderr };
  }

  beforeAll(async () => {
    if (!existsSync(join(REPO_ROOT, SCRIPT))) throw new Error(`${SCRIPT} is missing: run npm run build first`);
    database = await createTestDatabase();
    const config = testConfig(database.url, testRedisUrl(), { CAIRN_MASTER_KEY: masterKey.toString('base64') }, 'keys');
    moduleRef = await createDbTestingModule(config, [TenancyModule, EncryptionModule]);
    tenant = await moduleRef.get(TenantsService).create({ slug: `dk-${randomUUID().slice(0, 8)}`, name: 'Keys' });
    // Two sealed originals under version 1, as the redaction stores them.
    for (const value of ['first original', 'second original']) {
      const placeholderId = randomBytes(16).toString('base64url');
      const envelope = await moduleRef
        .get(EnvelopeEncryption)
        .encrypt(tenant.id, { table: 'secrets', rowId: placeholderId, field: 'value' }, value);
      await moduleRef.get(DataSource).query(
        `INSERT INTO "${tenant.schemaName}".secrets
           (id, placeholder_id, type, rule_id, value_encrypted, writer_token_id, source_table, source_id)
         VALUES ($1, $2, 'generic', 'generic', $3, $4, 'memories', $5)`,
        [randomUUID(), placeholderId, envelope, randomUUID(), randomUUID()],
      );
    }
  });

  afterAll(async () => {
    await moduleRef?.close();
    await database?.drop();
  });

  it("starts a new version of the tenant's data key, says what is left to re-seal, and audits it", async () => {
    const run = await rotate('--data-key', tenant.slug);
    expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: '' });
    expect(run.stdout).toContain(`tenant ${tenant.slug}: data key v2 now seals new values (was v1)`);
    expect(run.stdout).toContain('2 of 2 sealed values are on older versions');

    const dataSource = moduleRef.get(DataSource);
    const keys = await dataSource.query<{ version: number }[]>(
      'SELECT version FROM cairn.tenant_data_keys WHERE tenant_id = $1 ORDER BY version',
      [tenant.id],
    );
    expect(keys.map((row) => row.version)).toEqual([1, 2]);
    // The rows are left to the lazy re-encryption: the command only rotates.
    const rows = await dataSource.query<{ value_encrypted: Buffer }[]>(
      `SELECT value_encrypted FROM "${tenant.schemaName}".secrets`,
    );
    expect(rows.map((row) => envelopeKeyVersion(row.value_encrypted))).toEqual([1, 1]);
    const audit = await dataSource.query<{ actor: string; tenant_id: string; outcome: string }[]>(
      `SELECT actor, tenant_id, outcome FROM cairn.platform_audit WHERE action = 'tenant.data_key.rotate'`,
    );
    expect(audit).toEqual([{ actor: 'operator:keys-rotate', tenant_id: tenant.id, outcome: 'success' }]);
    const own = await dataSource.query<{ actor: string }[]>(
      `SELECT actor FROM "${tenant.schemaName}".audit_log WHERE action = 'tenant.data_key.rotate'`,
    );
    expect(own).toEqual([{ actor: 'operator:keys-rotate' }]);

    expect((await rotate('--data-key', tenant.slug)).stdout).toContain('data key v3 now seals new values (was v2)');
  });

  it('exits 1 with one line for an unknown tenant or a malformed argument, rotating nothing', async () => {
    const unknown = await rotate('--data-key', 'no-such-tenant');
    expect(unknown.code).toBe(1);
    expect(unknown.stderr.trim()).toBe('cairn keys:rotate: Tenant "no-such-tenant" not found');
    const malformed = await rotate('--data-keys', tenant.slug);
    expect(malformed.code).toBe(1);
    expect(malformed.stderr.trim().split('\n')).toHaveLength(1);
    expect(malformed.stderr).toContain("Unknown option '--data-keys'");
  });
});
