import { randomUUID } from 'node:crypto';
import { type ApiHarness, startApi } from './api-harness';
import { memoriesUrl, type MemoryWorld, memoryWorld, store } from './memory-fixtures';

/**
 * HTTP-level rules every route shares (issue 13): a method a path does not declare answers
 * 405 with `Allow` instead of falling into a neighbouring route, body-less methods accept an
 * empty JSON body, and numbers the schema accepts are numbers the database can hold.
 */
describe('the REST contract at the HTTP level', () => {
  let api: ApiHarness;
  let w: MemoryWorld;
  let id: string;

  beforeAll(async () => {
    api = await startApi();
    w = await memoryWorld(api);
    id = (await store(w.agent, w.project, { content: 'A memory for the method checks' })).memory.id;
  });
  afterAll(() => api.close());

  const inject = (method: string, url: string, headers: Record<string, string> = {}, payload?: string) =>
    api.app.inject({
      method: method as 'GET',
      url,
      headers: { authorization: `Bearer ${w.agent.token}`, ...headers },
      payload,
    });

  it.each([
    ['PATCH', memoriesUrl('PROJECT', '/decay'), 'POST'],
    ['GET', memoriesUrl('PROJECT', '/prune'), 'POST'],
    ['DELETE', memoriesUrl('PROJECT', '/decay'), 'POST'],
    ['PUT', memoriesUrl('PROJECT', '/ID'), 'DELETE, GET, HEAD, PATCH'],
    ['PUT', memoriesUrl('PROJECT'), 'GET, HEAD, POST'],
    ['DELETE', '/v1/tenants', 'GET, HEAD, POST'],
    ['POST', '/healthz', 'GET, HEAD'],
  ])('%s %s answers 405 with Allow: %s', async (method, template, allow) => {
    const url = template.replace('PROJECT', w.project).replace('ID', id);
    const response = await inject(method, url, { 'content-type': 'application/json' }, '{}');
    expect({ status: response.statusCode, allow: response.headers.allow }).toEqual({ status: 405, allow });
    expect(response.json()).toMatchObject({ error: { code: 'method_not_allowed' }, correlationId: expect.any(String) });
  });

  it('still routes declared methods and answers 404 for paths that do not exist', async () => {
    expect((await inject('GET', memoriesUrl(w.project, `/${id}`))).statusCode).toBe(200);
    expect((await inject('HEAD', memoriesUrl(w.project, `/${id}`))).statusCode).toBe(200);
    expect((await w.admin.post(memoriesUrl(w.project, '/decay'), {})).status).toBe(200);
    const missing = await inject('PATCH', '/v1/no-such-thing');
    expect(missing.statusCode).toBe(404);
    expect(missing.headers.allow).toBeUndefined();
  });

  it('accepts DELETE with a JSON content type and no body', async () => {
    const doomed = (await store(w.agent, w.project, { content: 'Deleted with an empty JSON body' })).memory.id;
    const response = await inject('DELETE', memoriesUrl(w.project, `/${doomed}`), {
      'content-type': 'application/json',
      'content-length': '0',
    });
    expect(response.statusCode).toBe(204);
    expect((await w.agent.get(memoriesUrl(w.project, `/${doomed}`))).status).toBe(404);
  });

  it('answers 415 to a body in any type but JSON, on every route that takes one (400 "expected object" before)', async () => {
    const doc = (await api.client.get('/docs/json')).body as { paths: Record<string, Record<string, unknown>> };
    const routes = Object.entries(doc.paths).flatMap(([path, item]) =>
      Object.keys(item)
        .filter((method) => ['post', 'put', 'patch', 'delete'].includes(method))
        .map((method) => [method.toUpperCase(), path] as const),
    );
    expect(routes.length).toBeGreaterThan(50);
    const answers: string[] = [];
    for (const [method, template] of routes) {
      const url = template
        .replace('{project}', w.project)
        .replace('{slug}', w.tenant.slug)
        // A random id: a request the type check let through must not touch a memory of the other tests.
        .replace(/\{[^}]+\}/g, randomUUID());
      for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'application/xml']) {
        const response = await inject(method, url, { 'content-type': type }, type === 'text/plain' ? '{}' : 'a=b');
        const code = response.body.startsWith('{') ? response.json<{ error?: { code?: string } }>().error?.code : '-';
        answers.push(`${method} ${template} ${type}: ${response.statusCode} ${code}`);
      }
    }
    expect(answers.filter((answer) => !answer.endsWith(': 415 unsupported_media_type'))).toEqual([]);
    // A JSON type with parameters is still JSON.
    const stored = await inject(
      'POST',
      memoriesUrl(w.project),
      { 'content-type': 'application/json; charset=utf-8' },
      JSON.stringify({ content: 'Sent with a charset' }),
    );
    expect(stored.statusCode).toBe(201);
  });

  it('still refuses an empty or broken JSON body where a body is expected', async () => {
    const empty = await inject('POST', memoriesUrl(w.project), { 'content-type': 'application/json' }, '');
    expect({ status: empty.statusCode, code: empty.json().error.code }).toEqual({ status: 400, code: 'invalid_json' });
    const broken = await inject(
      'DELETE',
      memoriesUrl(w.project, `/${id}`),
      { 'content-type': 'application/json' },
      '{',
    );
    expect({ status: broken.statusCode, code: broken.json().error.code }).toEqual({
      status: 400,
      code: 'invalid_json',
    });
    const poisoned = await inject(
      'POST',
      memoriesUrl(w.project),
      { 'content-type': 'application/json' },
      '{"content":"x","__proto__":{"admin":true}}',
    );
    expect(poisoned.statusCode).toBe(400);
  });

  it('cleans tag filters like stored tags instead of passing NUL bytes to PostgreSQL (500 before)', async () => {
    await store(w.agent, w.project, { content: 'Tagged for the filter check', tags: ['Deploy'] });
    const search = (tags: string[]) =>
      w.agent.post(memoriesUrl(w.project, '/search'), { query: 'tagged filter check', filters: { tags } });
    const cleaned = await search(['de\u0000PLOY']);
    expect(cleaned.status).toBe(200);
    expect(cleaned.body.results.map((r: any) => r.memory.content)).toContain('Tagged for the filter check');
    expect((await search(['\u0000'])).status).toBe(400);
    expect((await w.agent.get(memoriesUrl(w.project, '?tags=%00'))).status).toBe(400);
    expect((await w.agent.get(memoriesUrl(w.project, '?tags=de%00ploy'))).status).toBe(200);
    const path = await w.agent.post(memoriesUrl(w.project), {
      content: 'From a file',
      source: { path: 'a\u0000b.ts' },
    });
    expect({ status: path.status, path: path.body.memory?.source?.path }).toEqual({ status: 201, path: 'ab.ts' });
  });

  it('rounds numbers below the smallest PostgreSQL real to 0 instead of failing with a 500', async () => {
    const stored = await w.agent.post(memoriesUrl(w.project), { content: 'Barely confident', confidence: 1e-320 });
    expect({ status: stored.status, confidence: stored.body.memory.confidence }).toEqual({
      status: 201,
      confidence: 0,
    });
    const updated = await w.agent.patch(memoriesUrl(w.project, `/${stored.body.memory.id}`), { confidence: 5e-324 });
    expect({ status: updated.status, confidence: updated.body.memory.confidence }).toEqual({
      status: 200,
      confidence: 0,
    });
    const decay = await w.admin.post(memoriesUrl(w.project, '/decay'), { floor: 1e-320 });
    expect(decay.status).toBe(200);
    const prune = await w.admin.post(memoriesUrl(w.project, '/prune'), { maxConfidence: 1e-320, dryRun: true });
    expect(prune.status).toBe(200);
  });
});
