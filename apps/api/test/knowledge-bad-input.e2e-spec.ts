import { randomBytes } from 'node:crypto';
import { createProject, createTenant, issueToken, type TestClient } from '@cairn/testing';
import { type ApiHarness, startApi } from './api-harness';

const MAX_CHARS = 2_000;
const SQLISH = "x'); DROP TABLE kb_chunks; --";

describe('knowledge base: bad input never reaches the database as an error', () => {
  let api: ApiHarness;
  let project: string;
  let admin: TestClient;

  const docs = () => `/v1/projects/${project}/kb/documents`;
  const search = () => `/v1/projects/${project}/kb/search`;
  const validIndex = { source: 'docs/valid.md', text: 'Deployment runbook for the payments service.' };
  const validSearch = { query: 'deployment', mode: 'keyword', limit: 5, explain: false };

  const expect400 = (response: { status: number; body: any }, what: unknown) => {
    expect({ what, status: response.status }).toEqual({ what, status: 400 });
    expect(response.body.error.code).toMatch(
      /^(validation_failed|invalid_json|bad_request|empty_document|document_too_large)$/,
    );
    expect(response.body.correlationId).toEqual(expect.any(String));
    expect(JSON.stringify(response.body)).not.toMatch(/node_modules|\.ts:|at [A-Z]\w+\.|kb_chunks/);
  };

  beforeAll(async () => {
    api = await startApi({
      KB_DOCUMENT_MAX_CHARS: String(MAX_CHARS),
      QUEUE_PREFIX: `kbbad${randomBytes(4).toString('hex')}`,
    });
    const tenant = await createTenant(api.admin);
    project = (await createProject(api.admin, tenant.slug)).slug;
    admin = api.client.as((await issueToken(api.admin, tenant.slug, { role: 'admin' })).token);
    expect((await admin.post(docs(), validIndex)).status).toBe(201);
  });
  afterAll(() => api.close());

  it('rejects missing, empty, oversized and control-only text, and wrong types in every field', async () => {
    const { text: _text, ...noText } = validIndex;
    const { source: _source, ...noSource } = validIndex;
    for (const body of [noText, noSource, { ...validIndex, text: '' }, { ...validIndex, source: '   ' }]) {
      expect400(await admin.post(docs(), body), body);
    }
    const controlOnly = await admin.post(docs(), { ...validIndex, text: '\u0000\u0007\u001b\u009f \r\n' });
    expect400(controlOnly, 'control only');
    expect(controlOnly.body.error.code).toBe('empty_document');
    const oversized = await admin.post(docs(), { ...validIndex, text: 'x'.repeat(MAX_CHARS + 1) });
    expect400(oversized, 'oversized');
    expect(oversized.body.error.code).toBe('document_too_large');
    // The limit counts normalised text: trailing whitespace does not push a document over it.
    const atLimit = await admin.post(docs(), { source: 'docs/at-limit.md', text: `${'y'.repeat(MAX_CHARS)}    ` });
    expect(atLimit.status).toBe(201);

    for (const field of ['source', 'title', 'text', 'sourceType', 'retentionTier']) {
      for (const wrong of [42, null, ['a'], { nested: true }, true]) {
        expect400(await admin.post(docs(), { ...validIndex, [field]: wrong }), { field, wrong });
      }
    }
    expect400(await admin.post(docs(), { ...validIndex, sourceType: 'fetched' }), 'sourceType');
    expect400(await admin.post(docs(), { ...validIndex, retentionTier: 'forever' }), 'tier');
    expect400(await admin.post(docs(), { ...validIndex, title: 't'.repeat(501) }), 'title');
    const unknown = await admin.post(docs(), { ...validIndex, isAdmin: true });
    expect400(unknown, 'unknown field');
    expect(unknown.body.error.message).toContain('isAdmin');
    for (const payload of ['[]', '"text"', '12', 'null', '{"text":', '{bad json}']) {
      expect400(await admin.request('POST', docs(), payload), payload);
    }
  });

  it('stores control characters stripped and SQL-ish text verbatim', async () => {
    const indexed = await admin.post(docs(), {
      source: `${SQLISH}\u0000`,
      title: 'Bell\u0007 title',
      text: `${SQLISH}\u0000 quokkaterm\u001b[0m\tend`,
    });
    expect(indexed.status).toBe(201);
    expect(indexed.body.document).toMatchObject({ source: SQLISH, title: 'Bell title' });
    const found = await admin.post(search(), { query: 'quokkaterm' });
    expect(found.body.results[0].text).toBe(`${SQLISH} quokkaterm[0m\tend`);
  });

  it('rejects bad search requests with 400', async () => {
    const bad: unknown[] = [
      {},
      { ...validSearch, query: '' },
      { ...validSearch, query: '   \n\t ' },
      { ...validSearch, query: '\u0000\u0001\u001f\u007f' },
      { ...validSearch, query: 'q'.repeat(4_001) },
      { ...validSearch, query: 42 },
      { ...validSearch, mode: 'fuzzy' },
      { ...validSearch, mode: 'HYBRID' },
      { ...validSearch, limit: 0 },
      { ...validSearch, limit: 51 },
      { ...validSearch, limit: 1.5 },
      { ...validSearch, limit: '10' },
      { ...validSearch, explain: 'yes' },
      { ...validSearch, filter: { project: '*' } },
    ];
    for (const body of bad) {
      expect400(await admin.post(search(), body), body);
      expect400(await admin.post('/v1/kb/search', body), body);
    }
    for (const projects of [[], ['UPPER'], [SQLISH], 'all', Array.from({ length: 101 }, (_, i) => `project-${i}`)]) {
      expect400(await admin.post('/v1/kb/search', { ...validSearch, projects }), projects);
    }
    expect400(await admin.request('POST', search(), '{bad json}'), 'bad json');
  });

  it('answers odd but valid queries cleanly in every mode', async () => {
    const queries = [
      'ｄｅｐｌｏｙｍｅｎｔ', // full-width: folds to "deployment"
      'dеployment', // Cyrillic "е": a different word
      'Ꭰeployment', // Cherokee homoglyph
      SQLISH,
      "foo & | ! <-> :* bar ' \\ ( ) {}",
      'the and of to',
      '😀🚀',
      '\u200b\u200d\u202e',
      'deploy\u0000ment',
      'a\ud800b',
      '%_\\%',
      'q '.repeat(1_999),
    ];
    for (const query of queries) {
      for (const mode of ['hybrid', 'keyword', 'semantic']) {
        for (const url of [search(), '/v1/kb/search']) {
          const response = await admin.post(url, { query, mode, explain: true });
          expect({ query, mode, url, status: response.status }).toEqual({ query, mode, url, status: 200 });
          expect(Array.isArray(response.body.results)).toBe(true);
        }
      }
    }
    const folded = await admin.post(search(), { query: 'ｄｅｐｌｏｙｍｅｎｔ', mode: 'keyword' });
    expect(folded.body.results.map((hit: any) => hit.source)).toContain('docs/valid.md');
    const cyrillic = await admin.post(search(), { query: 'dеployment', mode: 'keyword' });
    expect(cyrillic.body.results).toEqual([]);
  });

  it('rejects bad paths, ids, paging and purge bodies', async () => {
    for (const id of ['not-a-uuid', '1 OR 1=1', encodeURIComponent(SQLISH), '00000000-0000-0000-0000-00000000000g']) {
      expect400(await admin.delete(`${docs()}/${id}`), id);
    }
    expect((await admin.delete(`${docs()}/00000000-0000-4000-8000-000000000000`)).status).toBe(404);
    for (const slug of ['UPPER', 'ab', encodeURIComponent(SQLISH)]) {
      expect([400, 404]).toContain((await admin.post(`/v1/projects/${slug}/kb/search`, validSearch)).status);
    }
    expect((await admin.post('/v1/projects/no-such-project/kb/search', validSearch)).status).toBe(404);
    for (const query of ['limit=0', 'limit=201', 'limit=abc', 'cursor=not-a-cursor', 'limit=1&unknown=1']) {
      expect400(await admin.get(`${docs()}?${query}`), query);
    }
    // A document's chunks are paged by ordinal, a PostgreSQL integer: larger is refused, not a 500.
    const chunks = `${docs()}/00000000-0000-4000-8000-000000000000/chunks`;
    for (const query of ['after=-1', 'after=2147483648', 'after=9007199254740990', 'after=1.5', 'limit=201']) {
      expect400(await admin.get(`${chunks}?${query}`), query);
    }
    expect((await admin.get(`${chunks}?after=2147483647`)).status).toBe(404);
    const purge = `/v1/projects/${project}/kb/purge`;
    for (const body of [{ tier: 'forever' }, { tier: 1 }, { everything: true }]) {
      expect400(await admin.post(purge, body), body);
    }
    expect((await admin.post(purge, {})).status).toBe(200);
    expect((await admin.request('POST', purge)).status).toBe(200);
  });

  it('still works after all of the above', async () => {
    const response = await admin.post(search(), validSearch);
    expect(response.status).toBe(200);
    expect(response.body.results.length).toBeGreaterThanOrEqual(1);
  });
});
