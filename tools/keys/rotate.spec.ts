import { randomBytes, randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { type TestingModule } from '@nestjs/testing';
import { EncryptionModule, EnvelopeEncryption, masterKeyId, PLATFORM_SCOPE } from '@cairn/encryption';
import { ChildApp, childEnvironment, REPO_ROOT } from '@cairn/process-harness';
import { createDbTestingModule, createTestDatabase, type TestDatabase, testConfig, testRedisUrl } from '@cairn/testing';
import { DataSource } from 'typeorm';

/** `npm run keys:rotate` as an operator runs it: the built script, its output and exit code. */
const SCRIPT = 'dist/tools/keys/rotate.js';
const spellings = (key: Buffer) => [key.toString('base64'), key.toString('hex'), key.toString('base64url')];

describe('npm run keys:rotate', () => {
  let database: TestDatabase;
  let moduleRef: TestingModule;
  const oldKey = randomBytes(32);
  const newKey = randomBytes(32);
  const slugs: string[] = [];

  async function rotate(keys: Record<string, string>) {
    const child = new ChildApp('keys:rotate', SCRIPT, childEnvironment({ DATABASE_URL: database.url, ...keys }));
    const status = await child.waitForExit(60_000);
    for (const secret of [...spellings(oldKey), ...spellings(newKey)]) expect(child.output()).not.toContain(secret);
    return { ...status, stdout: child.stdout, stderr: child.stderr };
  }

  beforeAll(async () => {
    if (!existsSync(join(REPO_ROOT, SCRIPT))) throw new Error(`${SCRIPT} is missing: run npm run build first`);
    database = await createTestDatabase();
    const config = testConfig(database.url, testRedisUrl(), { CAIRN_MASTER_KEY: oldKey.toString('base64') }, 'keys');
    moduleRef = await createDbTestingModule(config, [EncryptionModule]);
    const dataSource = moduleRef.get(DataSource);
    for (let i = 0; i < 2; i += 1) {
      const id = randomUUID();
      const slug = `cli-${i}-${id.slice(0, 8)}`;
      slugs.push(slug);
      await dataSource.query(`INSERT INTO cairn.tenants (id, slug, name, schema_name) VALUES ($1, $2, $2, $3)`, [
        id,
        slug,
        `t_${id.replace(/-/g, '')}`,
      ]);
      await moduleRef.get(EnvelopeEncryption).encrypt(id, { table: 'memories', rowId: '1', field: 'content' }, 'x');
    }
    // An operator's TOTP secret: the platform's own data key is re-wrapped too.
    await moduleRef
      .get(EnvelopeEncryption)
      .encrypt(PLATFORM_SCOPE, { table: 'accounts', rowId: randomUUID(), field: 'totp_secret' }, 'x');
  });

  afterAll(async () => {
    await moduleRef?.close();
    await database?.drop();
  });

  it('re-wraps every tenant with a line each and a summary, then finds nothing to do', async () => {
    const keys = { CAIRN_MASTER_KEY: newKey.toString('hex'), CAIRN_MASTER_KEY_PREVIOUS: oldKey.toString('base64') };
    const first = await rotate(keys);
    expect({ code: first.code, stderr: first.stderr }).toEqual({ code: 0, stderr: '' });
    expect(first.stdout).toContain(
      `re-wrapping data keys from CAIRN_MASTER_KEY_PREVIOUS (${masterKeyId(oldKey)}) to CAIRN_MASTER_KEY (${masterKeyId(newKey)})`,
    );
    for (const slug of slugs) expect(first.stdout).toMatch(new RegExp(`^  ${slug} .* 1 key +rotated 1 \\(`, 'm'));
    expect(first.stdout).toMatch(
      new RegExp(`^  \\(platform: no tenant\\) +${PLATFORM_SCOPE}  1 key +rotated 1 \\(`, 'm'),
    );
    expect(first.stdout).toContain('tenants: 2 total, 2 rotated, 0 up to date, 0 failed; 3 data keys re-wrapped');
    expect(first.stdout).toContain('CAIRN_MASTER_KEY_PREVIOUS can be removed');

    const second = await rotate(keys);
    expect(second.code).toBe(0);
    expect(second.stdout).toContain('tenants: 2 total, 0 rotated, 2 up to date, 0 failed; 0 data keys re-wrapped');
    expect(second.stdout).toMatch(/^ {2}\(platform: no tenant\) .* up to date/m);
  });

  it('exits 1 naming the tenants it cannot re-wrap', async () => {
    // The old key alone, after the rotation: every data key is wrapped by a key it was not given.
    const run = await rotate({ CAIRN_MASTER_KEY: oldKey.toString('base64') });
    expect(run.code).toBe(1);
    expect(run.stdout).toContain('CAIRN_MASTER_KEY_PREVIOUS is not set');
    expect(run.stdout).toContain(`FAILED: tenant`);
    expect(run.stdout).toContain(`wrapped by master key ${masterKeyId(newKey)}`);
    expect(run.stdout).toContain(`FAILED: the platform's data key v1 is wrapped by master key ${masterKeyId(newKey)}`);
    expect(run.stdout).toContain('3 data keys are still wrapped by another master key');
  });

  it('refuses a malformed previous key with one line naming the variable', async () => {
    const malformed = randomBytes(16).toString('base64');
    const run = await rotate({ CAIRN_MASTER_KEY: newKey.toString('base64'), CAIRN_MASTER_KEY_PREVIOUS: malformed });
    expect(run.code).toBe(1);
    const lines = run.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('CAIRN_MASTER_KEY_PREVIOUS must be exactly 32 random bytes');
    expect(run.stderr).not.toContain(malformed);
  });
});
