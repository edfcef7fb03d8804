import { createTenant, createUser, TestClient, uniqueSlug } from '@cairn/testing';
import { type GatewayWorld, startGatewayWorld } from '@cairn/gateway-harness';

const PASSWORD = 'correct horse battery staple';

/**
 * A browser session cookie is the api's credential for the console only: the MCP gateway takes
 * bearer tokens and nothing else, so a page a person has open cannot drive MCP tools with its
 * cookie (DESIGN §7: sessions are never authentication there).
 */
describe('the gateway and browser session cookies', () => {
  let world: GatewayWorld;
  let cookie: string;

  beforeAll(async () => {
    world = await startGatewayWorld();
    const tenant = (await createTenant(world.admin, uniqueSlug('gw'))).slug;
    const user = await createUser(world.admin, tenant, 'admin');
    const link = await world.admin.post(`/v1/tenants/${tenant}/users/${user.id}/password-link`);
    const client = new TestClient(world.api);
    await client.post('/v1/session/password', { token: String(link.body.url).split('#token=')[1], password: PASSWORD });
    const login = await client.post('/v1/session/login', { tenant, email: user.email, password: PASSWORD });
    expect(login.status).toBe(200);
    cookie = String(login.headers['set-cookie']).split(';')[0];
    // The cookie works on the api…
    expect((await client.request('GET', '/v1/session', undefined, { cookie })).status).toBe(200);
  });
  afterAll(() => world.close());

  it('answers a request carrying only a live session cookie with 401 and a Bearer challenge', async () => {
    const response = await fetch(world.mcpUrl, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        cookie,
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
    });
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toMatch(/^Bearer realm="cairn"/);
  });
});
