import { randomUUID } from 'node:crypto';
import { type ApiHarness, startApi } from './api-harness';
import { memoryWorld, type MemoryWorld } from './memory-fixtures';
import { fileUrl, requestUrl } from './summaries-harness';

const SQLISH = "x'); DROP TABLE file_summaries; --";

/** Bad input on every summaries route: clean 400s that never reach the database as an error. */
describe('summaries: bad input', () => {
  let api: ApiHarness;
  let w: MemoryWorld;
  const summarize = () => `/v1/projects/${w.project}/session/summarize`;

  const expect400 = (response: { status: number; body: any }, what: unknown) => {
    expect({ what, status: response.status }).toEqual({ what, status: 400 });
    expect(response.body.error.code).toMatch(/^(validation_failed|invalid_json|bad_request)$/);
    expect(response.body.correlationId).toEqual(expect.any(String));
    expect(JSON.stringify(response.body)).not.toMatch(/node_modules|\.ts:\d|at [A-Z]\w+\.|file_summaries/);
  };

  beforeAll(async () => {
    api = await startApi();
    w = await memoryWorld(api);
  });
  afterAll(() => api.close());

  it('rejects bad file-summary requests', async () => {
    const valid = { path: 'src/a.ts', content: 'export const a = 1;\n' };
    const bad: unknown[] = [
      {},
      { path: valid.path },
      { content: valid.content },
      { ...valid, path: '' },
      { ...valid, path: '   \u0000\u0007 ' },
      { ...valid, path: 'p'.repeat(1_025) },
      { ...valid, content: '' },
      { ...valid, content: 'c'.repeat(200_001) },
      { ...valid, extra: true },
      ...['path', 'content'].flatMap((field) =>
        [42, null, ['a'], { nested: true }, true].map((wrong) => ({ ...valid, [field]: wrong })),
      ),
    ];
    for (const body of bad) expect400(await w.agent.post(fileUrl(w.project), body), body);
    for (const payload of ['[]', '"text"', '12', 'null', '{"path":', '{bad json}']) {
      expect400(await w.agent.request('POST', fileUrl(w.project), payload), payload);
    }
    // At the limits, with odd but valid text, it is accepted.
    const edge = await w.agent.post(fileUrl(w.project), {
      path: `${SQLISH}/${'p'.repeat(900)}`,
      content: 'c'.repeat(200_000),
    });
    expect(edge.status).toBe(202);
    const nul = await w.agent.post(fileUrl(w.project), { path: 'bin/blob', content: 'a\u0000b' });
    expect(nul.status).toBe(202);
  });

  it('rejects bad file-summary lookups', async () => {
    for (const url of [
      fileUrl(w.project),
      `${fileUrl(w.project)}?path=`,
      `${fileUrl(w.project)}?path=${'p'.repeat(1_025)}`,
      `${fileUrl(w.project, 'a.ts')}&extra=1`,
      `${fileUrl(w.project)}?path=a&path=b`,
    ]) {
      expect400(await w.reader.get(url), url);
    }
    expect((await w.reader.get(fileUrl(w.project, SQLISH))).status).toBe(404);
    expect((await w.admin.get(fileUrl('NOT_A_SLUG', 'a.ts'))).status).toBe(400);
  });

  it('rejects bad session-summary requests and request lookups', async () => {
    for (const body of [
      {},
      { transcript: '' },
      { transcript: ' \n\t\u0000 ' },
      { transcript: 't'.repeat(200_001) },
      { transcript: 42 },
      { transcript: ['a'] },
      { transcript: 'ok', text: 'ok' },
    ]) {
      expect400(await w.agent.post(summarize(), body), body);
    }
    expect400(await w.agent.request('POST', summarize(), '{bad json}'), 'bad json');
    expect400(await w.reader.get(requestUrl(w.project, 'not-a-uuid')), 'id');
    expect400(await w.reader.get(requestUrl(w.project, `${randomUUID()}x`)), 'id');
    const missing = await w.reader.get(requestUrl(w.project, randomUUID()));
    expect(missing.status).toBe(404);
    expect(missing.body.error.code).toBe('not_found');
  });

  it('documents every summaries and extraction route in OpenAPI', async () => {
    const doc = await api.admin.get('/docs/json');
    const paths = doc.body.paths;
    const methods = (path: string) => Object.keys(paths[path] ?? {}).sort();
    expect(methods('/v1/projects/{project}/files/summary')).toEqual(['get', 'post']);
    expect(methods('/v1/projects/{project}/session/summarize')).toEqual(['post']);
    expect(methods('/v1/projects/{project}/requests/{id}')).toEqual(['get']);
    expect(methods('/v1/projects/{project}/extract')).toEqual(['post']);
    expect(methods('/v1/projects/{project}/proposals')).toEqual(['get']);
    expect(methods('/v1/projects/{project}/proposals/{id}/accept')).toEqual(['post']);
    expect(methods('/v1/projects/{project}/proposals/{id}/reject')).toEqual(['post']);
    expect(methods('/v1/tenants/{slug}/settings')).toEqual(['get', 'patch']);
    const post = paths['/v1/projects/{project}/files/summary'].post;
    expect(Object.keys(post.responses)).toEqual(expect.arrayContaining(['200', '202']));
    expect(JSON.stringify(post.requestBody)).toContain('content');
  });
});
