import { createTenant, issueToken, TEST_ADMIN_TOKEN } from '@cairn/testing';
import { type CliWorld, type Home, makeHome, runCairn, startCliWorld } from './cli-harness';

/**
 * `cairn admin …` against a real api: the platform token manages tenants, a tenant admin's
 * session token manages its own tenant only, and a created token is printed once, alone, so a
 * script can capture it and use it at once.
 */
describe('cairn admin', () => {
  let world: CliWorld;
  let home: Home;

  beforeAll(async () => {
    world = await startCliWorld();
  });
  afterAll(() => world.close());
  beforeEach(() => (home = makeHome()));
  afterEach(() => home.remove());

  const cairn = (args: string[], adminToken = TEST_ADMIN_TOKEN, extra: Record<string, string> = {}) =>
    runCairn(args, {
      env: { ...home.env, CAIRN_URL: world.apiUrl, CAIRN_ADMIN_TOKEN: adminToken, ...extra },
      cwd: home.cwd,
    });

  it('creates a tenant, a project, a user and a token, and the token works at once; revoke ends it', async () => {
    const slug = `cli-${Date.now().toString(36)}`;
    const tenant = await cairn(['admin', 'tenants', 'create', slug, '--name', 'CLI Co', '--json']);
    expect(tenant.code).toBe(0);
    expect(tenant.json()).toMatchObject({ slug, name: 'CLI Co' });
    expect((await cairn(['admin', 'tenants', 'list', '--json'])).json().items.map((t: any) => t.slug)).toContain(slug);
    expect((await cairn(['admin', 'projects', 'create', 'web-app', '--name', 'Web', '--tenant', slug])).code).toBe(0);
    const user = await cairn([
      'admin',
      'users',
      'create',
      'alice@example.com',
      '--name',
      'Alice',
      '--role',
      'member',
      '--tenant',
      slug,
      '--json',
    ]);
    expect(user.json()).toMatchObject({ email: 'alice@example.com', role: 'member' });

    const created = await cairn([
      'admin',
      'tokens',
      'create',
      '--role',
      'agent',
      '--projects',
      'web-app',
      '--agent',
      'claude-code:alice',
      '--tenant',
      slug,
    ]);
    expect(created.code).toBe(0);
    const token = created.stdout.trim();
    expect(token).toMatch(/^cairn_st_\S+$/);
    expect(created.stdout).toBe(`${token}\n`);
    expect(created.stderr).toMatch(/shown once/);
    const asJson = await cairn(['admin', 'tokens', 'create', '--role', 'reader', '--tenant', slug, '--json']);
    expect(asJson.json()).toMatchObject({ role: 'reader', token: expect.stringMatching(/^cairn_st_/) });

    const stored = await runCairn(['store', 'created by a script', '--json'], {
      env: { ...home.env, CAIRN_URL: world.apiUrl, CAIRN_TOKEN: token },
      cwd: home.cwd,
    });
    expect(stored.code).toBe(0);
    expect(stored.json().memory.project).toBe('web-app');

    const list = (await cairn(['admin', 'tokens', 'list', '--tenant', slug, '--json'])).json();
    const id = list.items.find((t: any) => t.agentId === 'claude-code:alice').id;
    expect(JSON.stringify(list)).not.toContain(token);
    expect((await cairn(['admin', 'tokens', 'revoke', id, '--tenant', slug])).code).toBe(0);
    const refused = await runCairn(['whoami'], {
      env: { ...home.env, CAIRN_URL: world.apiUrl, CAIRN_TOKEN: token },
      cwd: home.cwd,
    });
    expect(refused.code).toBe(4);

    const userId = user.json().id;
    const disabled = await cairn(['admin', 'users', 'update', userId, '--disable', '--tenant', slug, '--json']);
    expect(disabled.json()).toMatchObject({ disabled: true });
    expect((await cairn(['admin', 'users', 'update', userId, '--tenant', slug])).code).toBe(2);

    expect((await cairn(['admin', 'tenants', 'delete', slug])).code).toBe(2);
    const deleted = await cairn(['admin', 'tenants', 'delete', slug, '--yes']);
    expect(deleted.code).toBe(0);
    expect(deleted.stdout).toMatch(
      /^Deleted tenant .* dropped with \d+ rows in \d+ tables; \d+ tokens revoked, \d+ users disabled\./m,
    );
    expect((await cairn(['admin', 'tenants', 'get', slug])).code).toBe(5);
  });

  it("a tenant admin's token manages its own tenant (audit chain, failed jobs) and is refused elsewhere", async () => {
    const tenant = await createTenant(world.admin);
    const other = await createTenant(world.admin);
    const admin = (await issueToken(world.admin, tenant.slug, { role: 'admin' })).token;
    expect((await cairn(['admin', 'projects', 'create', 'api-svc', '--name', 'API'], admin)).code).toBe(0);
    expect((await cairn(['admin', 'projects', 'list', '--json'], admin)).json().items.map((p: any) => p.slug)).toEqual([
      'api-svc',
    ]);

    const verify = await cairn(['admin', 'audit', 'verify', '--json'], admin);
    expect(verify.code).toBe(0);
    expect(verify.json()).toMatchObject({ valid: true });
    expect(verify.json().entries).toBeGreaterThan(0);
    const audit = await cairn(['admin', 'audit', 'list', '--json'], admin);
    expect(audit.json().items.map((e: any) => e.action)).toContain('project.create');
    expect((await cairn(['admin', 'queues', 'failed', '--json'], admin)).json()).toEqual({
      items: [],
      nextCursor: null,
    });

    const foreign = await cairn(['admin', 'projects', 'list', '--tenant', other.slug], admin);
    expect(foreign.code).toBe(4);
    expect((await cairn(['admin', 'tenants', 'list'], admin)).code).toBe(4);
    expect((await cairn(['admin', 'queues', 'list'], admin)).code).toBe(4);
    const member = (await issueToken(world.admin, tenant.slug, { role: 'member' })).token;
    expect((await cairn(['admin', 'tokens', 'create', '--role', 'admin'], member)).code).toBe(4);
  });

  it('with the platform token: queue counts, failed jobs, retry; tenant commands need --tenant; a bad admin token is refused', async () => {
    const queues = await cairn(['admin', 'queues', 'list', '--json']);
    expect(queues.code).toBe(0);
    expect(queues.json().queues.map((q: any) => q.queue)).toEqual(
      expect.arrayContaining(['embeddings', 'maintenance']),
    );
    expect((await cairn(['admin', 'queues', 'failed', '--json'])).code).toBe(0);
    const retried = await cairn(['admin', 'queues', 'retry', '--all', '--queue', 'embeddings', '--json']);
    expect(retried.json()).toEqual({ retried: 0 });
    expect((await cairn(['admin', 'queues', 'retry'])).code).toBe(2);
    expect((await cairn(['admin', 'queues', 'retry', 'nonsense', '1'])).code).toBe(2);
    const noTenant = await cairn(['admin', 'users', 'list']);
    expect(noTenant.code).toBe(2);
    expect(noTenant.stderr).toMatch(/--tenant/);
    expect((await cairn(['admin', 'tenants', 'list'], 'not-the-admin-token-at-all-0123456789')).code).toBe(4);
    expect((await cairn(['admin', 'tokens', 'create', '--role', 'wizard', '--tenant', 'x'])).code).toBe(2);
  });
});
