import { createTestDatabase, type Idps, startIdps, type TestDatabase, testRedisUrl, uniqueSlug } from '@cairn/testing';
import {
  APP_ENTRY,
  ChildApp,
  childEnvironment,
  freePort,
  generateSecrets,
  killAllChildren,
  type RunningApp,
  waitUntilHealthy,
} from './process-harness';
import { OidcBrowser } from './oidc-harness';

const SECRET = 'process-test-client-secret';

/**
 * The built api (dist/, as the image runs it) signs a person in through an identity provider.
 * openid-client ships only ES modules: Node requires them as they are, while the other OIDC specs
 * run jest's CommonJS translation of them, so only this one shows the real runtime loads it.
 */
describe('the built api signs in through an identity provider', () => {
  let database: TestDatabase;
  let idps: Idps;
  let api: RunningApp;
  const secrets = generateSecrets();

  beforeAll(async () => {
    database = await createTestDatabase();
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    idps = await startIdps([
      {
        name: 'main',
        clients: [
          { client_id: 'cairn', client_secret: SECRET, redirect_uris: [`${url}/v1/session/oidc/corp/callback`] },
        ],
      },
    ]);
    const provider = {
      id: 'corp',
      name: 'Corp SSO',
      issuer: idps.urls.main,
      clientId: 'cairn',
      scopes: ['openid', 'email', 'profile', 'groups', 'tenant'],
      tenantClaim: 'tenant',
      roles: { admins: 'admin' },
      jitUsers: true,
    };
    const env = childEnvironment({
      HOST: '127.0.0.1',
      API_PORT: String(port),
      DATABASE_URL: database.url,
      REDIS_URL: testRedisUrl(),
      CAIRN_ADMIN_TOKEN: secrets.adminToken,
      CAIRN_MASTER_KEY: secrets.masterKey,
      QUEUE_PREFIX: `t${port}`,
      EMBEDDING_PROVIDER: 'hash',
      API_PUBLIC_URL: url,
      OIDC_PROVIDERS: JSON.stringify([provider]),
      OIDC_CLIENT_SECRETS: JSON.stringify({ corp: SECRET }),
    });
    api = { app: 'api', port, url, process: new ChildApp('api', APP_ENTRY.api, env) };
    await waitUntilHealthy(api);
  });
  afterAll(async () => {
    await killAllChildren();
    await idps?.close();
    await database?.drop();
  });

  it('from the start route to the console with a session', async () => {
    const tenant = uniqueSlug('proc');
    const created = await fetch(`${api.url}/v1/tenants`, {
      method: 'POST',
      headers: { authorization: `Bearer ${secrets.adminToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ slug: tenant, name: 'Process' }),
    });
    expect(created.status).toBe(201);
    await idps.setAccount('main', 'ada', {
      email: 'ada@example.com',
      email_verified: true,
      tenant,
      groups: ['admins'],
    });

    const browser = new OidcBrowser(api.url, '203.0.113.7');
    expect(await browser.signIn('corp', 'ada')).toEqual({ status: 303, location: '/console/', error: null });
    const session = await fetch(`${api.url}/v1/session`, {
      headers: { cookie: `__Host-cairn_session=${browser.cookie('__Host-cairn_session')}` },
    });
    expect(await session.json()).toMatchObject({ kind: 'tenant', tenant: { slug: tenant }, role: 'admin' });
    expect(api.process.stderr).not.toContain('ExperimentalWarning');
  });
});
