import { issueToken, type TestClient } from '@cairn/testing';
import { DataSource } from 'typeorm';
import { type ApiHarness, startApi } from './api-harness';
import { importLine, memoriesUrl, type MemoryWorld, memoryWorld } from './memory-fixtures';

const NDJSON = 'application/x-ndjson';

/**
 * What an import leaves behind besides its rows. Who owns a private memory that arrives by import. A private memory is its author's alone, so a
 * maintainer may not plant one under another identity (it would read to them as their own
 * note); an admin's restore keeps each author, and the importing admin's token does not become
 * an author of what it restored.
 */
describe('memories by import (REST): private authors, planner statistics', () => {
  let api: ApiHarness;
  let w: MemoryWorld;
  /** A maintainer (member) whose token carries Alice's agent id. */
  let aliceMaintainer: TestClient;

  beforeAll(async () => {
    api = await startApi();
    w = await memoryWorld(api);
    const token = await issueToken(api.admin, w.tenant.slug, {
      role: 'member',
      projects: [w.project],
      agentId: 'claude-code:alice',
    });
    aliceMaintainer = api.client.as(token.token);
  });
  afterAll(() => api.close());

  const importLines = (client: TestClient, lines: Record<string, unknown>[]) => {
    const header = { format: 'cairn.memories', version: 1, project: w.project, exportedAt: new Date().toISOString() };
    const text = [header, ...lines].map((line) => JSON.stringify(line)).join('\n');
    return client.request('POST', memoriesUrl(w.project, '/import'), text, { 'content-type': NDJSON });
  };
  const status = async (client: TestClient, id: string) => (await client.get(memoriesUrl(w.project, `/${id}`))).status;
  const alicesPrivate = (content: string) =>
    importLine({ scope: 'private', content, author: { userId: null, agentId: 'claude-code:alice' } });

  it("refuses a maintainer's import of another author's private memory, naming the line, and writes nothing", async () => {
    const theirs = importLine({ content: 'A project fact anyone may restore' });
    const planted = alicesPrivate('Note to self: deploy with --force');
    const response = await importLines(w.member, [theirs, planted]);
    expect(response.status).toBe(403);
    expect(response.body.error).toMatchObject({ code: 'not_owner' });
    expect(response.body.error.message).toMatch(/Line\(s\) 3 hold private memories of another author/);
    expect(await status(w.admin, theirs.id)).toBe(404);
    expect(await status(w.agent, planted.id)).toBe(404);
  });

  it('lets a maintainer import its own private memories, and makes it the author of one that names nobody', async () => {
    const own = alicesPrivate('Alice keeps her own notes');
    const nobodys = importLine({
      scope: 'private',
      content: 'Written by a token without identity',
      author: { userId: null, agentId: null },
    });
    const response = await importLines(aliceMaintainer, [own, nobodys]);
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ imported: 2 });
    // Alice's, through any token of her agent id; the one naming nobody, only the importer's.
    expect(await status(w.agent, own.id)).toBe(200);
    expect(await status(aliceMaintainer, nobodys.id)).toBe(200);
    expect(await status(w.agent, nobodys.id)).toBe(404);
    expect(await status(w.otherAgent, own.id)).toBe(404);
  });

  it('restores private memories to their authors when an admin imports them, not to the admin', async () => {
    const restored = alicesPrivate('Alice’s private runbook for the failover');
    const response = await importLines(w.admin, [restored]);
    expect(response.status).toBe(200);
    expect(await status(w.agent, restored.id)).toBe(200);
    expect(await status(w.admin, restored.id)).toBe(404);
    expect(await status(w.otherAgent, restored.id)).toBe(404);
    // Still in the admin's backup, which holds every scope.
    const exported = await api.app.inject({
      method: 'GET',
      url: memoriesUrl(w.project, '/export'),
      headers: { authorization: `Bearer ${w.admin.token}` },
    });
    expect(exported.statusCode).toBe(200);
    expect(exported.body).toContain(restored.id);
  });

  it('settles the statistics after a bulk import (deltas folded, planner statistics fresh), so recall is fast at once', async () => {
    // A table never analyzed has reltuples -1; autovacuum would take up to a minute to get there.
    const reltuples = async () => {
      const [row] = await api.app
        .get(DataSource)
        .query<{ reltuples: number }[]>(
          `SELECT reltuples FROM pg_class WHERE oid = '"${w.tenant.schema}".memories'::regclass`,
        );
      return Number(row?.reltuples);
    };
    const before = await reltuples();
    const lines = Array.from({ length: 1000 }, (_, index) => importLine({ content: `Bulk fact ${index}` }));
    const response = await importLines(w.admin, lines);
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ imported: 1000 });
    const after = await reltuples();
    expect(after).not.toBe(before);
    expect(after).toBeGreaterThanOrEqual(1000);
    // And the term-count deltas its rows appended are folded already (the worker would, later).
    const [deltas] = await api.app
      .get(DataSource)
      .query<{ n: number }[]>(`SELECT count(*)::int AS n FROM "${w.tenant.schema}".term_count_deltas`);
    expect(deltas).toEqual({ n: 0 });
  });
});
