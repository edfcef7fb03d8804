import { issueToken } from '@cairn/testing';
import { DataSource } from 'typeorm';
import { type ApiHarness, startApi } from './api-harness';
import { memoriesUrl, type MemoryWorld, memoryWorld } from './memory-fixtures';

// Words no other test writes: if any of them shows up in a row, an index or a response, it leaked.
const CONTENT = 'Quarterly payroll vendor is Zanzibarco, contact Wilhelmina Oyelaran-Quist';
const WORDS = ['zanzibarco', 'wilhelmina', 'oyelaran'];
const SENSITIVE = /^\[SECRET:sensitive:([A-Za-z0-9_-]{22})\]$/;

describe('sensitive memories (REST): the whole content sealed', () => {
  let api: ApiHarness;
  let w: MemoryWorld;
  let db: DataSource;
  const secretUrl = (id: string) => `/v1/projects/${w.project}/secrets/${id}`;
  const placeholderId = (content: string) => SENSITIVE.exec(content)![1];
  /** Every place a memory's text can reach in the tenant schema, as one lower-cased string. */
  const storedEverywhere = async () =>
    JSON.stringify(
      await db.query(
        `SELECT (SELECT json_agg(json_build_array(content, tsv::text, keywords, tags)) FROM "${w.tenant.schema}".memories) AS m,
                (SELECT json_agg(snapshot) FROM "${w.tenant.schema}".memory_versions) AS v,
                (SELECT json_agg(lexeme) FROM "${w.tenant.schema}".term_counts) AS t,
                (SELECT json_agg(lexeme) FROM "${w.tenant.schema}".term_count_deltas) AS d,
                (SELECT json_agg(encode(value_encrypted, 'escape')) FROM "${w.tenant.schema}".secrets) AS s`,
      ),
    ).toLowerCase();

  beforeAll(async () => {
    api = await startApi();
    w = await memoryWorld(api);
    db = api.app.get(DataSource);
  });
  afterAll(() => api.close());

  it('stores only a placeholder, keeps category, tags and keywords, and returns the original to its writer', async () => {
    const response = await w.agent.post(memoriesUrl(w.project), {
      content: CONTENT,
      category: 'person',
      tags: ['payroll'],
      keywords: ['salary provider'],
      sensitive: true,
    });
    expect(response.status).toBe(201);
    const memory = response.body.memory;
    expect(memory.content).toMatch(SENSITIVE);
    expect(memory).toMatchObject({ sensitive: true, category: 'person', tags: ['payroll'] });
    expect(memory.keywords).toEqual(['salary provider']);
    expect(response.body.warnings).toEqual([]);

    const id = placeholderId(memory.content);
    const mine = await w.agent.get(secretUrl(id));
    expect(mine.status).toBe(200);
    expect(mine.body).toMatchObject({
      id,
      type: 'sensitive',
      value: CONTENT,
      sourceTable: 'memories',
      sourceId: memory.id,
    });
    expect((await w.admin.get(secretUrl(id))).body.value).toBe(CONTENT);
    // Not the writer, not an admin: the same 404 as an id never stored.
    for (const other of [w.otherAgent, w.reader, w.member]) {
      const denied = await other.get(secretUrl(id));
      expect(denied.status).toBe(404);
      expect(JSON.stringify(denied.body)).not.toContain('Zanzibarco');
    }
    const audited = await db.query<{ outcome: string }[]>(
      `SELECT outcome FROM "${w.tenant.schema}".audit_log WHERE action = 'secret.read'`,
    );
    expect(audited.length).toBeGreaterThanOrEqual(2);
  });

  it('never lets the content reach the row, the full-text index, term statistics or history', async () => {
    const stored = await storedEverywhere();
    expect(stored).toContain('[secret:sensitive:');
    for (const word of WORDS) expect(stored).not.toContain(word);
  });

  it('answers reads (get, list, search, briefing, history) with the placeholder only', async () => {
    const created = await w.agent.post(memoriesUrl(w.project), { content: CONTENT, sensitive: true });
    const id = created.body.memory.id;
    const reads = [
      await w.reader.get(memoriesUrl(w.project, `/${id}`)),
      await w.reader.get(memoriesUrl(w.project)),
      await w.reader.post(memoriesUrl(w.project, '/search'), { query: 'Zanzibarco payroll', mode: 'keyword' }),
      await w.agent.post(`/v1/projects/${w.project}/context`, {}),
      await w.reader.get(memoriesUrl(w.project, `/${id}/history`)),
    ];
    for (const read of reads) {
      expect(read.status).toBeLessThan(300);
      for (const word of WORDS) expect(JSON.stringify(read.body).toLowerCase()).not.toContain(word);
    }
    expect(reads[0].body.content).toMatch(SENSITIVE);
    // Found by what it keeps: its keywords.
    const byKeyword = await w.reader.post(memoriesUrl(w.project, '/search'), {
      query: 'salary provider',
      mode: 'keyword',
    });
    expect(JSON.stringify(byKeyword.body)).toContain('[SECRET:sensitive:');
  });

  it('is never compared for contradictions, either way', async () => {
    await w.agent.post(memoriesUrl(w.project), { content: 'The staging database runs PostgreSQL 16' });
    const sealed = await w.agent.post(memoriesUrl(w.project), {
      content: 'The staging database does not run PostgreSQL 16',
      sensitive: true,
    });
    expect(sealed.body.warnings).toEqual([]);
    // The same text in the clear is flagged: the detector would have seen the sealed one.
    const control = await w.otherAgent.post(memoriesUrl(w.project), {
      content: 'The staging database does not run PostgreSQL 16',
    });
    expect(control.body.warnings.length).toBeGreaterThan(0);
    const plain = await w.agent.post(memoriesUrl(w.project), {
      content: 'The staging database never runs PostgreSQL 16',
    });
    expect(plain.body.warnings.map((warning: { memoryId: string }) => warning.memoryId)).not.toContain(
      sealed.body.memory.id,
    );
  });

  it('stays sealed on update unless sensitive: false comes with new content', async () => {
    const created = await w.agent.post(memoriesUrl(w.project), { content: CONTENT, sensitive: true });
    const url = memoriesUrl(w.project, `/${created.body.memory.id}`);
    const first = created.body.memory.content;

    const retagged = await w.agent.patch(url, { tags: ['vendors'] });
    expect(retagged.status).toBe(200);
    expect(retagged.body.memory).toMatchObject({ sensitive: true, content: first, tags: ['vendors'] });

    const rewritten = await w.agent.patch(url, { content: 'Payroll vendor moved to Quixotrade' });
    expect(rewritten.body.memory.sensitive).toBe(true);
    expect(rewritten.body.memory.content).toMatch(SENSITIVE);
    expect(rewritten.body.memory.content).not.toBe(first);
    const second = placeholderId(rewritten.body.memory.content);
    expect((await w.agent.get(secretUrl(second))).body.value).toBe('Payroll vendor moved to Quixotrade');
    // The earlier version keeps its own placeholder, still readable by its writer.
    expect((await w.agent.get(secretUrl(placeholderId(first)))).body.value).toBe(CONTENT);

    const refused = await w.agent.patch(url, { sensitive: false });
    expect(refused.status).toBe(400);
    expect(refused.body.error.code).toBe('content_required');
    // Others learn nothing about it: the answers of any update they may not make.
    expect((await w.otherAgent.patch(url, { sensitive: false })).status).toBe(403);
    const elsewhere = memoriesUrl(w.otherProject, `/${created.body.memory.id}`);
    expect((await w.wideAgent.patch(elsewhere, { sensitive: false })).status).toBe(404);

    const opened = await w.agent.patch(url, { sensitive: false, content: 'Payroll vendor: see the finance wiki' });
    expect(opened.status).toBe(200);
    expect(opened.body.memory).toMatchObject({ sensitive: false, content: 'Payroll vendor: see the finance wiki' });
  });

  it('seals a plain memory that turns sensitive, and wipes the plain text from its history', async () => {
    const created = await w.agent.post(memoriesUrl(w.project), { content: 'Escrow agent is Brambleworth Vossenkamp' });
    const url = memoriesUrl(w.project, `/${created.body.memory.id}`);
    await w.agent.patch(url, { importance: 4 });
    const sealed = await w.agent.patch(url, { sensitive: true, reason: 'personal data' });
    expect(sealed.status).toBe(200);
    expect(sealed.body.memory.content).toMatch(SENSITIVE);
    expect((await w.agent.get(secretUrl(placeholderId(sealed.body.memory.content)))).body.value).toBe(
      'Escrow agent is Brambleworth Vossenkamp',
    );
    const history = await w.reader.get(`${url}/history`);
    expect(history.body.versions.length).toBeGreaterThanOrEqual(2);
    expect(JSON.stringify(history.body)).not.toContain('Brambleworth');
    const rows = JSON.stringify(
      await db.query(
        `SELECT (SELECT json_agg(json_build_array(content, tsv::text)) FROM "${w.tenant.schema}".memories) AS m,
                (SELECT json_agg(snapshot) FROM "${w.tenant.schema}".memory_versions) AS v`,
      ),
    ).toLowerCase();
    expect(rows).not.toContain('brambleworth');
    // Counted while it was plain, uncounted when sealed: the next fold of the statistics drops the word.
    const [count] = await db.query<{ docs: number }[]>(
      `SELECT coalesce(sum(docs), 0)::int AS docs FROM (
         SELECT docs FROM "${w.tenant.schema}".term_counts WHERE lexeme = 'brambleworth'
         UNION ALL SELECT docs FROM "${w.tenant.schema}".term_count_deltas WHERE lexeme = 'brambleworth') t`,
    );
    expect(count.docs).toBe(0);
  });

  it('rejects a sensitive flag that is not a boolean, and seals even under the "reject" setting', async () => {
    const bad = await w.agent.post(memoriesUrl(w.project), { content: 'x', sensitive: 'yes' });
    expect(bad.status).toBe(400);
    const settings = `/v1/tenants/${w.tenant.slug}/settings`;
    await w.admin.patch(settings, { secrets: 'reject' });
    try {
      const withKey = 'Deploy key AKIA2E4AYF3B7C5DQGQW for the vendor bucket';
      expect((await w.agent.post(memoriesUrl(w.project), { content: withKey })).status).toBe(400);
      // Sealed whole, nothing of it is stored in the clear: nothing to refuse.
      const sealed = await w.agent.post(memoriesUrl(w.project), { content: withKey, sensitive: true });
      expect(sealed.status).toBe(201);
      expect(sealed.body.redacted).toEqual([]);
    } finally {
      await w.admin.patch(settings, { secrets: 'redact' });
    }
  });

  it('answers 404 to an agent of the same tenant that cannot see the project', async () => {
    const created = await w.agent.post(memoriesUrl(w.project), { content: CONTENT, sensitive: true });
    const id = placeholderId(created.body.memory.content);
    const elsewhere = api.client.as(
      (
        await issueToken(api.admin, w.tenant.slug, {
          role: 'agent',
          projects: [w.otherProject],
          agentId: 'claude-code:alice',
        })
      ).token,
    );
    expect((await elsewhere.get(`/v1/projects/${w.otherProject}/secrets/${id}`)).status).toBe(404);
  });
});
