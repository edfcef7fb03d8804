import { createTenant, issueToken } from '@cairn/testing';
import { type ApiHarness, startApi } from './api-harness';

describe('api observability and documentation', () => {
  let api: ApiHarness;
  beforeAll(async () => {
    api = await startApi();
  });
  afterAll(() => api.close());

  it('labels request durations with the route template, never the concrete path', async () => {
    const tenant = await createTenant(api.admin);
    await api.admin.get(`/v1/tenants/${tenant.slug}/users`);
    await api.client.get('/v1/whoami');
    const metrics = await api.client.get('/metrics');
    expect(metrics.status).toBe(200);
    expect(metrics.headers['content-type']).toContain('text/plain');
    const text = String(metrics.body);
    expect(text).toMatch(
      /cairn_http_request_duration_seconds_count\{app="api",route="\/v1\/tenants\/:slug\/users",method="GET",status="200"\} 1/,
    );
    expect(text).toMatch(
      /cairn_http_request_duration_seconds_count\{app="api",route="\/v1\/whoami",method="GET",status="401"\} 1/,
    );
    expect(text).not.toContain(tenant.slug);
    expect(text).toContain('process_cpu_user_seconds_total');
  });

  it('echoes a sane x-request-id as the correlation id, and replaces a forged one', async () => {
    const ok = await api.client.request('GET', '/v1/whoami', undefined, { 'x-request-id': 'req-1234567890' });
    expect(ok.headers['x-request-id']).toBe('req-1234567890');
    expect(ok.body.correlationId).toBe('req-1234567890');
    const forged = await api.client.request('GET', '/v1/whoami', undefined, { 'x-request-id': 'bad\nid "injected"' });
    expect(forged.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('serves the OpenAPI document with every admin route and the bearer scheme', async () => {
    const doc = await api.client.get('/docs/json');
    expect(doc.status).toBe(200);
    expect(doc.body.openapi).toMatch(/^3\./);
    expect(Object.keys(doc.body.paths)).toEqual(
      expect.arrayContaining([
        '/v1/tenants',
        '/v1/tenants/{slug}',
        '/v1/tenants/{slug}/users',
        '/v1/tenants/{slug}/users/{id}',
        '/v1/tenants/{slug}/tokens',
        '/v1/tenants/{slug}/tokens/{id}',
        '/v1/tenants/{slug}/projects',
        '/v1/auth/introspect',
        '/v1/whoami',
      ]),
    );
    expect(doc.body.components.securitySchemes.bearer).toMatchObject({ type: 'http', scheme: 'bearer' });
    const createTenant = doc.body.paths['/v1/tenants'].post;
    expect(JSON.stringify(createTenant.requestBody)).toContain('CreateTenantDto');
    expect(doc.body.components.schemas.CreateTenantDto.properties.slug.pattern).toBeDefined();
    expect((await api.client.get('/docs')).status).toBe(200);
  });

  it('reports readiness with every dependency', async () => {
    const ready = await api.client.get('/readyz');
    expect(ready.status).toBe(200);
    expect(ready.body.checks).toMatchObject({ database: { ok: true }, redis: { ok: true }, schema: { ok: true } });
  });

  it('never writes tokens into responses other than the one that issues them', async () => {
    const tenant = await createTenant(api.admin);
    const { token } = await issueToken(api.admin, tenant.slug, { role: 'admin' });
    for (const url of ['/v1/audit', `/v1/tenants/${tenant.slug}/tokens`, '/metrics']) {
      const response = await api.admin.get(url);
      expect(JSON.stringify(response.body)).not.toContain(token.slice(9));
    }
  });
});
