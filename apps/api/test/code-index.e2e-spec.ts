import { createHash, randomBytes } from 'node:crypto';
import { createProject, createTenant, issueToken } from '@cairn/testing';
import { type ApiHarness, startApi } from './api-harness';
import { memoryWorld, type MemoryWorld } from './memory-fixtures';

const ALPHANUMERIC = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
/** A synthetic token in GitHub's format: a secret to the scanner, a credential to nobody. */
const githubToken = () => `ghp_${Array.from(randomBytes(36), (byte) => ALPHANUMERIC[byte % 62]).join('')}`;
const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

const SERVICE = [
  'import { Injectable } from "@nestjs/common";',
  '',
  '/** Sends invoices. */',
  'export class InvoiceSender {',
  '  send(id: string): Promise<void> {',
  '    return deliver(id);',
  '  }',
  '}',
  '',
  'export function deliver(id: string): Promise<void> {',
  '  return Promise.resolve();',
  '}',
  '',
].join('\n');
const SCRIPT = 'def build_index(root):\n    return walk(root)\n\n\nMAX_FILES = 100\n';

/**
 * The code index's REST routes (docs/code-index.md), which `cairn index` drives: what a file
 * becomes (language, symbols, passages), that unchanged content is left alone, the manifest and
 * its pages, removals and runs, secrets redacted from content and refused in paths, and every
 * refusal: malformed and oversized bodies, a reader writing, another project and another tenant.
 */
describe('the code index over REST', () => {
  let api: ApiHarness;
  let w: MemoryWorld;
  const url = (project: string, suffix: string) => `/v1/projects/${project}/code/${suffix}`;

  beforeAll(async () => {
    api = await startApi();
    w = await memoryWorld(api);
  });
  afterAll(() => api.close());

  it('indexes files with their language and symbols, and leaves the same content alone', async () => {
    const files = [
      { path: 'src/invoice.service.ts', content: SERVICE },
      { path: 'tools/build.py', content: SCRIPT },
      { path: 'README.md', content: '# Billing\n' },
    ];
    const first = await w.agent.put(url(w.project, 'files'), { branch: 'main', commit: 'abc1234', files });
    expect(first.status).toBe(200);
    expect(first.body.files).toEqual([
      expect.objectContaining({ path: 'src/invoice.service.ts', language: 'typescript', unchanged: false }),
      expect.objectContaining({ path: 'tools/build.py', language: 'python', unchanged: false }),
      expect.objectContaining({ path: 'README.md', language: null, symbols: 0, chunks: 1, unchanged: false }),
    ]);
    expect(first.body.files[0].symbols).toBeGreaterThanOrEqual(3);
    expect(first.body.files[0].hash).toBe(sha256(SERVICE));
    const again = await w.agent.put(url(w.project, 'files'), { branch: 'main', files });
    expect(again.body.files.every((file: { unchanged: boolean }) => file.unchanged)).toBe(true);
  });

  it('lists the manifest in path order, page by page, per branch', async () => {
    const page = await w.reader.get(`${url(w.project, 'manifest')}?branch=main&limit=2`);
    expect(page.status).toBe(200);
    expect(page.body.files.map((file: { path: string }) => file.path)).toEqual(['README.md', 'src/invoice.service.ts']);
    expect(page.body.next).toBe('src/invoice.service.ts');
    const rest = await w.reader.get(`${url(w.project, 'manifest')}?branch=main&after=${page.body.next}`);
    expect(rest.body.files).toEqual([{ path: 'tools/build.py', hash: sha256(SCRIPT), size: SCRIPT.length }]);
    expect(rest.body.next).toBeNull();
    const other = await w.reader.get(`${url(w.project, 'manifest')}?branch=feature/x`);
    expect(other.body).toMatchObject({ branch: 'feature/x', files: [], commit: null, next: null });
  });

  it('records a run (the commit, counts and a derived card), and removes files', async () => {
    const run = await w.agent.post(url(w.project, 'runs'), {
      branch: 'main',
      commit: 'abcdef1234',
      scanned: 3,
      uploaded: 3,
      removed: 0,
      skipped: 0,
    });
    expect(run.status).toBe(200);
    expect(run.body).toMatchObject({ branch: 'main', commit: 'abcdef1234', files: 3 });
    expect(run.body.card.version).toBeGreaterThanOrEqual(1);
    const card = await w.reader.get(`/v1/projects/${w.project}/card`);
    expect(card.body.content.stack).toEqual(expect.arrayContaining(['TypeScript (1 files)', 'Python (1 files)']));
    const removed = await w.agent.post(url(w.project, 'files/remove'), {
      branch: 'main',
      paths: ['README.md', 'never/indexed.ts'],
    });
    expect(removed.body).toEqual({ removed: 1 });
    const manifest = await w.reader.get(url(w.project, 'manifest'));
    expect(manifest.body.commit).toBe('abcdef1234');
    expect(manifest.body.files).toHaveLength(2);
  });

  it('redacts a secret in content and refuses one in a path', async () => {
    const token = githubToken();
    const content = `export const GITHUB = '${token}';\n`;
    const stored = await w.agent.put(url(w.project, 'files'), {
      branch: 'main',
      files: [{ path: 'src/config.ts', content }],
    });
    expect(stored.status).toBe(200);
    expect(stored.body.files[0].redacted).toEqual([expect.objectContaining({ count: 1 })]);
    expect(stored.body.files[0].hash).toBe(sha256(content));
    expect(JSON.stringify(stored.body)).not.toContain(token);
    const inPath = await w.agent.put(url(w.project, 'files'), {
      branch: 'main',
      files: [{ path: `src/${token}.ts`, content: 'x' }],
    });
    expect(inPath.status).toBe(400);
    expect(JSON.stringify(inPath.body)).not.toContain(token);
  });

  it.each([
    ['an absolute path', { path: '/etc/passwd', content: 'x' }],
    ['a parent segment', { path: 'src/../../x.ts', content: 'x' }],
    ['an empty segment', { path: 'src//x.ts', content: 'x' }],
    ['a backslash', { path: 'src\\x.ts', content: 'x' }],
    ['a control character', { path: 'src/\u0001.ts', content: 'x' }],
    ['a trailing slash', { path: 'src/', content: 'x' }],
  ])('refuses %s', async (_name, file) => {
    const response = await w.agent.put(url(w.project, 'files'), { branch: 'main', files: [file] });
    expect(response.status).toBe(400);
    expect(response.body.error.message).toMatch(/path/);
  });

  it('refuses malformed and oversized bodies with a clear error, and stores nothing', async () => {
    const put = (body: unknown) => w.agent.put(url(w.project, 'files'), body);
    const file = (i: number) => ({ path: `many/${i}.ts`, content: 'x' });
    expect((await put({ branch: 'main', files: [] })).status).toBe(400);
    expect((await put({ branch: 'main', files: Array.from({ length: 101 }, (_, i) => file(i)) })).status).toBe(400);
    expect((await put({ branch: 'main', files: [{ path: 'big.ts', content: 'x'.repeat(524_289) }] })).status).toBe(400);
    expect((await put({ branch: 'bad branch', files: [file(1)] })).status).toBe(400);
    expect((await put({ branch: 'main', commit: 'not-hex', files: [file(1)] })).status).toBe(400);
    expect((await put({ branch: 'main', files: [file(1)], extra: true })).status).toBe(400);
    expect((await w.agent.get(`${url(w.project, 'manifest')}?limit=0`)).status).toBe(400);
    expect((await w.agent.post(url(w.project, 'files/remove'), { branch: 'main', paths: [] })).status).toBe(400);
    const manifest = await w.reader.get(url(w.project, 'manifest'));
    expect(manifest.body.files.map((entry: { path: string }) => entry.path)).not.toContain('many/1.ts');
  });

  it('takes the later content of a path sent twice in one request', async () => {
    const twice = await w.agent.put(url(w.project, 'files'), {
      branch: 'twice',
      files: [
        { path: 'a.ts', content: 'export const A = 1;' },
        { path: 'a.ts', content: 'export const A = 2;' },
      ],
    });
    expect(twice.body.files).toEqual([expect.objectContaining({ path: 'a.ts', hash: sha256('export const A = 2;') })]);
    const manifest = await w.reader.get(`${url(w.project, 'manifest')}?branch=twice`);
    expect(manifest.body.files).toEqual([{ path: 'a.ts', hash: sha256('export const A = 2;'), size: 19 }]);
  });

  it('lets a reader read but not write, and keeps projects and tenants apart', async () => {
    const body = { branch: 'main', files: [{ path: 'a.ts', content: 'export const A = 1;' }] };
    expect((await w.reader.put(url(w.project, 'files'), body)).status).toBe(403);
    expect((await w.reader.post(url(w.project, 'files/remove'), { branch: 'main', paths: ['a.ts'] })).status).toBe(403);
    // The agent's token names one project only.
    expect((await w.agent.put(url(w.otherProject, 'files'), body)).status).toBe(403);
    expect((await w.agent.get(url(w.otherProject, 'manifest'))).status).toBe(403);
    const other = await createTenant(api.admin);
    const theirs = (await createProject(api.admin, other.slug)).slug;
    const stranger = api.client.as((await issueToken(api.admin, other.slug, { role: 'admin', projects: '*' })).token);
    const probe = await stranger.get(url(w.project, 'manifest'));
    expect([403, 404]).toContain(probe.status);
    expect((await stranger.get(url(theirs, 'manifest'))).body.files).toEqual([]);
    expect((await api.client.get(url(w.project, 'manifest'))).status).toBe(401);
  });
});
