import { JobQueue } from '@cairn/jobs';
import { AccessRecorder } from '@cairn/memory';
import { randomUUID } from 'node:crypto';
import { createProject, createTenant, issueToken, type TestClient } from '@cairn/testing';
import { Client } from 'pg';
import { type ApiHarness, startApi } from './api-harness';
import { type ChangeItem, changes, cursorAfter, drain, drainUntil, eventually, itemId } from './change-feed';
import { importLine, memoriesUrl, type MemoryWorld, memoryWorld, store } from './memory-fixtures';

const BODY_LIMIT = 256 * 1024;
const NDJSON = 'application/x-ndjson';

describe('memory change feed, export and import', () => {
  let api: ApiHarness;
  let w: MemoryWorld;
  /** Reader of every project, for the projects tests create on the way. */
  let anyReader: TestClient;

  const exportText = async (client: TestClient, project: string, query = '') => {
    const response = await api.app.inject({
      method: 'GET',
      url: memoriesUrl(project, `/export${query}`),
      headers: { authorization: `Bearer ${client.token}` },
    });
    return { status: response.statusCode, headers: response.headers, text: response.body };
  };
  /** The memory lines of a successful export (header dropped). */
  const exportedLines = async (client: TestClient, project: string) => {
    const { status, text } = await exportText(client, project);
    expect(status).toBe(200);
    return text.split('\n').slice(1).filter(Boolean);
  };
  const importText = (client: TestClient, project: string, text: string, query = '', type = NDJSON) =>
    client.request('POST', memoriesUrl(project, `/import${query}`), text, { 'content-type': type });

  beforeAll(async () => {
    api = await startApi({ MEMORY_CONTENT_MAX_CHARS: '2000', HTTP_BODY_LIMIT_BYTES: String(BODY_LIMIT) });
    w = await memoryWorld(api);
    anyReader = api.client.as((await issueToken(api.admin, w.tenant.slug, { role: 'reader', projects: '*' })).token);
  });
  afterAll(() => api.close());

  describe('GET …/memories/changes', () => {
    it('delivers creates, updates and deletes once each, in order, deletions as tombstones', async () => {
      let { cursor } = await drain(w.reader, w.project);
      const a = (await store(w.agent, w.project, { content: 'Feed check: the cache layer is Redis' })).memory;
      const created = await drainUntil(w.reader, w.project, cursor, 1);
      expect(created.items).toEqual([{ memory: expect.objectContaining({ id: a.id, version: 1 }) }]);
      cursor = created.cursor;

      expect((await w.agent.patch(memoriesUrl(w.project, `/${a.id}`), { importance: 5 })).status).toBe(200);
      const updated = await drainUntil(w.reader, w.project, cursor, 1);
      expect(updated.items).toEqual([{ memory: expect.objectContaining({ id: a.id, version: 2, importance: 5 }) }]);
      cursor = updated.cursor;

      expect((await w.agent.delete(memoriesUrl(w.project, `/${a.id}`))).status).toBe(204);
      const deleted = await drainUntil(w.reader, w.project, cursor, 1);
      expect(deleted.items).toEqual([{ id: a.id, deleted: true, changedAt: expect.any(String), reason: 'deleted' }]);
      expect(new Date((deleted.items[0] as { changedAt: string }).changedAt).getTime()).not.toBeNaN();

      expect((await drain(w.reader, w.project, deleted.cursor)).items).toEqual([]);
    });

    it('starts from the beginning without a cursor and lists every row once', async () => {
      const first = await store(w.agent, w.project, { content: 'Feed check: builds use pnpm workspaces' });
      const all = await eventually(
        () => drain(w.reader, w.project),
        (result) => result.items.some((item) => itemId(item) === first.memory.id),
        10_000,
      );
      const ids = all.items.map(itemId);
      expect(new Set(ids).size).toBe(ids.length);
      expect(ids).toContain(first.memory.id);
    });

    it('pages with limit in commit order, without gaps or repeats', async () => {
      const { cursor } = await drain(w.reader, w.project);
      const ids: string[] = [];
      for (let i = 0; i < 5; i += 1) {
        ids.push(
          (await store(w.agent, w.project, { content: `Paging fact number ${i} about service ${i * 7}` })).memory.id,
        );
      }
      await drainUntil(w.reader, w.project, cursor, 5);
      const pages: { items: ChangeItem[]; hasMore: boolean }[] = [];
      let next = cursor;
      for (;;) {
        const page = await changes(w.reader, w.project, next, 2);
        pages.push(page);
        next = page.nextCursor;
        if (!page.hasMore) break;
      }
      expect(pages.map((page) => [page.items.length, page.hasMore])).toEqual([
        [2, true],
        [2, true],
        [1, false],
      ]);
      expect(pages.flatMap((page) => page.items.map(itemId))).toEqual(ids);
    });

    it('lets an old cursor see a change made after it was issued', async () => {
      const { cursor: before } = await drain(w.reader, w.project);
      const later = await store(w.agent, w.project, { content: 'Feed check: the staging cluster is in Frankfurt' });
      const seen = await drainUntil(w.reader, w.project, before, 1);
      expect(seen.items.map(itemId)).toEqual([later.memory.id]);
      const after = seen.cursor;
      expect((await drain(w.reader, w.project, after)).items).toEqual([]);
    });

    it('answers 400 for cursors it did not issue and for bad parameters', async () => {
      const forged = Buffer.from('c1.h.-5').toString('base64url');
      for (const query of [
        'since=garbage!',
        `since=${forged}`,
        'since=',
        'limit=0',
        'limit=1001',
        'limit=abc',
        'from=1',
      ]) {
        const response = await w.reader.get(memoriesUrl(w.project, `/changes?${query}`));
        expect({ query, status: response.status }).toEqual({ query, status: 400 });
        expect(response.body.error.code).toBe('validation_failed');
      }
    });

    it("never shows another project's changes; tenant-wide memories reach every project", async () => {
      const a = await drain(w.reader, w.project);
      const b = await drain(w.member, w.otherProject);
      const inB = await store(w.member, w.otherProject, { content: 'Feed check: project B uses Kafka' });
      const wide = await store(w.admin, w.project, {
        content: 'Feed check: every service logs JSON',
        scope: 'tenant',
      });
      expect((await drainUntil(w.reader, w.project, a.cursor, 1)).items.map(itemId)).toEqual([wide.memory.id]);
      expect((await drainUntil(w.member, w.otherProject, b.cursor, 2)).items.map(itemId)).toEqual([
        inB.memory.id,
        wide.memory.id,
      ]);
      const denied = await w.agent.get(memoriesUrl(w.otherProject, '/changes'));
      expect(denied.status).toBe(403);
      expect(denied.body.error.code).toBe('project_forbidden');
    });

    it('withholds changes behind a transaction still open, then delivers everything once it commits', async () => {
      const held = await store(w.agent, w.project, { content: 'Feed check: the original wording of a held fact' });
      const cursor = await cursorAfter(w.reader, w.project, [held.memory.id]);

      const pg = new Client({ connectionString: api.database.url });
      await pg.connect();
      try {
        await pg.query(`SET search_path TO "${w.tenant.schema}"`);
        await pg.query('BEGIN');
        // What MemoriesRepository.update does, left uncommitted: its xid is now the oldest running.
        await pg.query(
          `UPDATE memories SET content = 'Feed check: the held fact, rewritten', change_xid = pg_current_xact_id() WHERE id = $1`,
          [held.memory.id],
        );
        const after = await store(w.agent, w.project, {
          content: 'Feed check: committed while another write was open',
        });
        expect((await w.reader.get(memoriesUrl(w.project, `/${after.memory.id}`))).status).toBe(200);

        // Committed and visible, but its xid is above the open transaction's: not delivered yet.
        const waiting = await changes(w.reader, w.project, cursor);
        expect(waiting.items).toEqual([]);
        expect(waiting.hasMore).toBe(false);

        await pg.query('COMMIT');
        const delivered = await eventually(
          () => drain(w.reader, w.project, waiting.nextCursor),
          (result) => result.items.length >= 2,
          10_000,
        );
        expect(delivered.items.map(itemId)).toEqual([held.memory.id, after.memory.id]);
        expect((delivered.items[0] as { memory: { content: string } }).memory.content).toBe(
          'Feed check: the held fact, rewritten',
        );
      } finally {
        await pg.query('ROLLBACK').catch(() => undefined);
        await pg.end();
      }
    });
  });

  describe('export and import', () => {
    const header = (project: string) =>
      JSON.stringify({ format: 'cairn.memories', version: 1, project, exportedAt: new Date().toISOString() });
    const line = (overrides: Record<string, unknown> = {}) => JSON.stringify(importLine(overrides));

    it('round-trips exactly into a project of another tenant', async () => {
      const source = (await createProject(api.admin, w.tenant.slug)).slug;
      const maintainer = api.client.as(
        (await issueToken(api.admin, w.tenant.slug, { role: 'member', projects: '*' })).token,
      );
      const base = await store(w.wideAgent, source, {
        content: 'The API gateway terminates TLS',
        category: 'architecture',
        tags: ['tls', 'gateway'],
        keywords: ['HTTPS', 'certificates'],
        importance: 4,
        confidence: 0.65,
        source: { path: 'deploy/gateway.yaml', line: 14, contentHash: 'sha256:aaaaaaaa11' },
        pinned: true,
      });
      const detail = await store(w.wideAgent, source, {
        content: 'Certificates are renewed by cert-manager',
        tags: ['tls'],
      });
      const old = await store(w.wideAgent, source, { content: 'Certificates are renewed by hand every quarter' });
      const replacement = await store(w.wideAgent, source, {
        content: 'Renewal runs automatically two weeks before expiry',
        supersedes: [old.memory.id],
      });
      const gone = await store(w.wideAgent, source, { content: 'A memory that is deleted before the export' });
      const wide = await store(w.admin, source, { content: 'Every service exposes /healthz', scope: 'tenant' });
      const link = (from: string, toId: string, type: string, note?: string) =>
        w.wideAgent.post(memoriesUrl(source, `/${from}/relations`), { toId, type, ...(note ? { note } : {}) });
      expect((await link(detail.memory.id, base.memory.id, 'elaborates', 'how renewal works')).status).toBe(201);
      expect((await link(base.memory.id, detail.memory.id, 'related_to')).status).toBe(201);
      expect((await link(base.memory.id, wide.memory.id, 'depends_on')).status).toBe(201);
      expect((await link(base.memory.id, gone.memory.id, 'related_to')).status).toBe(201);
      expect((await w.wideAgent.delete(memoriesUrl(source, `/${gone.memory.id}`))).status).toBe(204);
      expect((await w.wideAgent.patch(memoriesUrl(source, `/${detail.memory.id}`), { importance: 2 })).status).toBe(
        200,
      );
      expect(
        (await w.wideAgent.post(memoriesUrl(source, `/${base.memory.id}/verify`), { contentHash: 'sha256:bbbbbbbb22' }))
          .status,
      ).toBe(200);
      expect(
        (await w.wideAgent.post(memoriesUrl(source, '/search'), { query: 'TLS gateway', mode: 'keyword' })).status,
      ).toBe(200);
      // Access counts are written off the request path; make this one land before exporting.
      await api.app.get(AccessRecorder).flush();
      // Archived and backdated state arrives through an import of its own.
      const archivedLine = line({
        content: 'Old archived note',
        archived: true,
        archivedAt: '2024-05-01T00:00:00.000Z',
      });
      expect((await importText(maintainer, source, `${header(source)}\n${archivedLine}\n`)).status).toBe(200);

      const first = await exportText(anyReader, source);
      expect(first.status).toBe(200);
      expect(first.headers['content-type']).toContain(NDJSON);
      const lines = first.text.trimEnd().split('\n');
      expect(JSON.parse(lines[0])).toEqual({
        format: 'cairn.memories',
        version: 1,
        project: source,
        exportedAt: expect.any(String),
      });
      const exported = lines.slice(1).map((text) => JSON.parse(text));
      expect(exported).toHaveLength(5);
      expect(exported.map((m) => m.id)).not.toContain(gone.memory.id);
      expect(exported.map((m) => m.id)).not.toContain(wide.memory.id);
      expect(exported.find((m) => m.id === base.memory.id)).toMatchObject({
        scope: 'project',
        keywords: ['HTTPS', 'certificates'],
        pinned: true,
        stale: true,
        accessCount: 1,
        author: { userId: null, agentId: 'codex:carol' },
        // Only relations inside the export: not to the tenant-wide or the deleted memory.
        relations: [{ toId: detail.memory.id, type: 'related_to', note: null }],
      });
      expect(exported.find((m) => m.id === old.memory.id)).toMatchObject({ supersededBy: replacement.memory.id });
      expect(exported.find((m) => m.id === detail.memory.id)).toMatchObject({ version: 2 });
      expect(exported.find((m) => m.content === 'Old archived note')).toMatchObject({ archived: true });

      const other = await createTenant(api.admin);
      const target = (await createProject(api.admin, other.slug)).slug;
      const otherAdmin = api.client.as(
        (await issueToken(api.admin, other.slug, { role: 'admin', projects: '*' })).token,
      );
      const imported = await importText(otherAdmin, target, first.text);
      expect(imported.status).toBe(200);
      const relationCount = exported.reduce((sum, m) => sum + m.relations.length, 0);
      expect(relationCount).toBeGreaterThanOrEqual(3);
      expect(imported.body).toEqual({
        imported: 5,
        unchanged: [],
        conflicts: [],
        relations: relationCount,
        embedding: 'queued',
        redacted: [],
      });
      // An import's embedding is bulk work: prioritized behind interactive writes, shared between tenants.
      const embeddings = api.app.get(JobQueue).queue('embeddings');
      const importJobs = (await embeddings.getPrioritized()).filter((job) => job.data.tenantId === other.id);
      expect(importJobs.map((job) => job.data.origin)).toEqual(['bulk']);
      expect(importJobs[0]?.opts.priority).toBeGreaterThan(0);
      // A write through REST is interactive: no priority, ahead of every bulk job.
      const written = (await embeddings.getWaiting()).filter((job) => job.data.tenantId === w.tenant.id);
      expect(written.length).toBeGreaterThan(0);
      expect(new Set(written.map((job) => job.data.origin))).toEqual(new Set(['interactive']));

      const second = await exportText(otherAdmin, target);
      const secondLines = second.text.trimEnd().split('\n');
      expect(secondLines.slice(1)).toEqual(lines.slice(1));
      expect(second.text.slice(second.text.indexOf('\n'))).toBe(first.text.slice(first.text.indexOf('\n')));
      const { project: _p1, exportedAt: _e1, ...header1 } = JSON.parse(lines[0]);
      const { project: p2, exportedAt: _e2, ...header2 } = JSON.parse(secondLines[0]);
      expect(header2).toEqual(header1);
      expect(p2).toBe(target);

      const again = await importText(otherAdmin, target, first.text);
      expect(again.body).toMatchObject({ imported: 0, conflicts: [], embedding: 'unchanged' });
      expect(again.body.unchanged).toHaveLength(5);
      expect((await exportText(otherAdmin, target)).text.split('\n').slice(1)).toEqual(first.text.split('\n').slice(1));
    });

    it('exports tenant-wide memories only when asked', async () => {
      const wide = await store(w.admin, w.project, { content: 'Export check: tenant-wide rule', scope: 'tenant' });
      const without = (await exportText(w.reader, w.project)).text;
      const withWide = (await exportText(w.reader, w.project, '?includeTenantWide=true')).text;
      expect(without).not.toContain(wide.memory.id);
      const wideLine = withWide.split('\n').find((text) => text.startsWith(`{"id":"${wide.memory.id}"`));
      expect(JSON.parse(wideLine as string)).toMatchObject({ scope: 'tenant' });
      expect((await exportText(w.reader, w.project, '?includeTenantWide=yes')).status).toBe(400);
      expect((await exportText(w.reader, w.project, '?format=csv')).status).toBe(400);
      expect((await exportText(w.agent, w.otherProject)).status).toBe(403);
    });

    it('rejects a file with any bad line, naming every line, and writes nothing', async () => {
      const project = (await createProject(api.admin, w.tenant.slug)).slug;
      const good = line();
      const text = [
        header(project),
        good,
        '{"id": oops}',
        line({ importance: 'high' }),
        line({ confidence: 2 }),
        line({ tags: 'not-a-list' }),
        line({ isAdmin: true }),
        line({ content: 'x'.repeat(2001) }),
        line({ createdAt: 'yesterday' }),
        line({ author: { userId: 'bob', agentId: null } }),
      ].join('\n');
      const response = await importText(w.member, project, text);
      expect(response.status).toBe(400);
      expect(response.body.error.code).toBe('invalid_import');
      expect(response.body.error.message).toContain('8 invalid lines');
      expect(response.body.correlationId).toEqual(expect.any(String));
      const byLine = new Map<number, string>(
        response.body.error.details.map((d: any) => [d.line, `${d.path}: ${d.message}`]),
      );
      expect([...byLine.keys()].sort((x, y) => x - y)).toEqual([3, 4, 5, 6, 7, 8, 9, 10]);
      expect(byLine.get(3)).toContain('not valid JSON');
      expect(byLine.get(7)).toContain('unknown field(s): isAdmin');
      expect(byLine.get(8)).toContain('at most 2000 characters');
      expect(await exportedLines(anyReader, project)).toEqual([]);

      const dangling = line({ supersededBy: randomUUID() });
      const unresolved = await importText(w.member, project, `${header(project)}\n${good}\n${dangling}`);
      expect(unresolved.status).toBe(400);
      expect(unresolved.body.error.details).toEqual([
        { line: 3, path: 'supersededBy', message: expect.stringContaining('neither in the file nor in this project') },
      ]);
      for (const bad of ['', 'not json at all', good, `${line()}\n${header(project)}`]) {
        const response = await importText(w.member, project, bad);
        expect({ bad: bad.slice(0, 20), status: response.status }).toMatchObject({ status: 400 });
      }
      expect(await exportedLines(anyReader, project)).toEqual([]);
    });

    it('reports id collisions as conflicts unless told to skip them', async () => {
      const project = (await createProject(api.admin, w.tenant.slug)).slug;
      const mine = await store(w.agent, w.project, { content: 'Conflict check: lives in the first project' });
      const exported = (await exportText(w.reader, w.project)).text.split('\n');
      const existingLine = exported.find((text) => text.startsWith(`{"id":"${mine.memory.id}"`)) as string;
      const fresh = line({ content: 'Conflict check: a new memory' });
      const changed = JSON.stringify({ ...JSON.parse(existingLine), content: 'Conflict check: different words' });

      const conflict = await importText(w.member, project, [header(project), fresh, existingLine].join('\n'));
      expect(conflict.status).toBe(409);
      expect(conflict.body.error).toMatchObject({
        code: 'import_conflict',
        details: [{ line: 3, id: mine.memory.id }],
      });
      expect(await exportedLines(anyReader, project)).toEqual([]);

      const sameProject = await importText(w.member, w.project, [header(w.project), changed].join('\n'));
      expect(sameProject.status).toBe(409);
      const identical = await importText(w.member, w.project, [header(w.project), existingLine].join('\n'));
      expect(identical.body).toMatchObject({ imported: 0, unchanged: [mine.memory.id] });

      const skipped = await importText(
        w.member,
        project,
        [header(project), fresh, existingLine].join('\n'),
        '?onConflict=skip',
      );
      expect(skipped.status).toBe(200);
      expect(skipped.body).toMatchObject({ imported: 1, conflicts: [{ line: 3, id: mine.memory.id }] });
      expect((await exportedLines(anyReader, project)).join('\n')).toContain('Conflict check: a new memory');
      expect((await w.reader.get(memoriesUrl(w.project, `/${mine.memory.id}`))).body.content).toBe(
        'Conflict check: lives in the first project',
      );
      expect((await importText(w.member, project, header(project), '?onConflict=maybe')).status).toBe(400);
    });

    it('survives two imports of the same file at once: one writes, the other finds them or asks for a retry', async () => {
      const project = (await createProject(api.admin, w.tenant.slug)).slug;
      const text = [header(project), ...Array.from({ length: 20 }, (_, i) => line({ content: `Race ${i}` }))].join(
        '\n',
      );
      const results = await Promise.all([importText(w.member, project, text), importText(w.admin, project, text)]);
      for (const result of results) expect([200, 409]).toContain(result.status);
      expect(results.map((result) => result.body.imported ?? 0).sort()).toEqual([0, 20]);
      expect(await exportedLines(anyReader, project)).toHaveLength(20);
    });

    it('needs memory.maintain, the declared media type and a body within the limit', async () => {
      const text = `${header(w.project)}\n${line()}\n`;
      for (const client of [w.agent, w.reader]) {
        const response = await importText(client, w.project, text);
        expect(response.status).toBe(403);
      }
      const asJson = await w.member.post(memoriesUrl(w.project, '/import'), { lines: [] });
      expect(asJson.status).toBe(415);
      expect(asJson.body.error.code).toBe('unsupported_media_type');
      expect((await importText(w.member, w.project, text, '', 'text/plain')).status).toBe(415);
      const huge = `${header(w.project)}\n${Array.from({ length: 200 }, () => line({ content: 'y'.repeat(1900) })).join('\n')}`;
      expect(Buffer.byteLength(huge)).toBeGreaterThan(BODY_LIMIT);
      expect((await importText(w.member, w.project, huge)).status).toBe(413);

      const narrow = api.client.as(
        (await issueToken(api.admin, w.tenant.slug, { role: 'member', projects: [w.project] })).token,
      );
      const wideLine = `${header(w.project)}\n${line({ scope: 'tenant' })}\n`;
      const refused = await importText(narrow, w.project, wideLine);
      expect(refused.status).toBe(403);
      expect(refused.body.error.code).toBe('scope_too_narrow');
    });
  });
});
