import { randomBytes, randomUUID } from 'node:crypto';
import { issueToken, type TestClient } from '@cairn/testing';
import { DataSource } from 'typeorm';
import { type ApiHarness, startApi } from './api-harness';
import { importLine, memoriesUrl, type MemoryWorld, memoryWorld, store } from './memory-fixtures';

const ALPHANUMERIC = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
/** A GitHub token of its own for every field, so a leak names the field it came through. */
const githubToken = () =>
  `ghp_${Array.from(randomBytes(36), (byte) => ALPHANUMERIC[byte % ALPHANUMERIC.length]).join('')}`;
/** A database password, found by the connection-string rule. */
const password = () => `Pw${randomBytes(9).toString('hex')}`;
const connection = (secret: string) => `postgres://app:${secret}@db.internal:5432/app`;

/**
 * Issue 22, defect 1: a memory's `source.path` and a knowledge document's `source` and `title`
 * were stored and returned in clear. Every text field a write stores is scanned (free text is
 * redacted to placeholders, identifiers that later requests look things up by refuse a secret)
 * and idempotency keys are stored as digests. Found the way a leak is: one secret per field,
 * written through every REST write path, then every text, array and JSON column of every table
 * of the tenant's schema searched for them, and the reads that return what was stored.
 */
describe('secrets in every stored text field (REST, redact)', () => {
  let api: ApiHarness;
  let w: MemoryWorld;
  let db: DataSource;
  let orchestrator: TestClient;
  /** Field → its secret. */
  const secrets = new Map<string, string>();
  const secret = (field: string, make: () => string = githubToken) => {
    const value = make();
    secrets.set(field, value);
    return value;
  };
  const url = (suffix: string) => `/v1/projects/${w.project}${suffix}`;
  /** The fields whose secret `text` holds (case-insensitively: tags are stored lower-cased). */
  const leaked = (text: string) => {
    const lower = text.toLowerCase();
    return [...secrets].filter(([, value]) => lower.includes(value.toLowerCase())).map(([field]) => field);
  };
  const responses: { what: string; body: unknown }[] = [];
  const expectStatus = (what: string, response: { status: number; body: unknown }, status: number) => {
    responses.push({ what, body: response.body });
    expect({ what, status: response.status, body: response.status === status ? undefined : response.body }).toEqual({
      what,
      status,
      body: undefined,
    });
  };

  beforeAll(async () => {
    api = await startApi();
    w = await memoryWorld(api);
    db = api.app.get(DataSource);
    orchestrator = api.client.as(
      (await issueToken(api.admin, w.tenant.slug, { role: 'orchestrator', projects: [w.project], agentId: 'orch' }))
        .token,
    );
  });
  afterAll(() => api.close());

  it('stores no secret in clear, whatever field it came in', async () => {
    const stored = await w.agent.request(
      'POST',
      memoriesUrl(w.project),
      {
        content: `Deploy with ${secret('memory.content')}`,
        tags: [secret('memory.tag')],
        keywords: [secret('memory.keyword')],
        source: { path: connection(secret('memory.source.path', password)), contentHash: secret('memory.source.hash') },
      },
      { 'idempotency-key': secret('memory.idempotencyKey') },
    );
    expectStatus('store', stored, 201);
    const id = stored.body.memory.id as string;
    expectStatus(
      'update',
      await w.agent.patch(memoriesUrl(w.project, `/${id}`), {
        content: `Deploy now with ${secret('update.content')}`,
        source: { path: `configs/${secret('update.source.path')}.env` },
        reason: `rotated ${secret('update.reason')}`,
      }),
      200,
    );
    const other = (await store(w.agent, w.project, { content: 'A neighbour to link to' })).memory.id;
    expectStatus(
      'link',
      await w.agent.post(memoriesUrl(w.project, `/${id}/relations`), {
        toId: other,
        type: 'related_to',
        note: `both use ${secret('relation.note')}`,
      }),
      201,
    );
    const duplicate = (await store(w.member, w.project, { content: 'Merged away soon' })).memory.id;
    const target = (await store(w.member, w.project, { content: 'Merged into this one' })).memory.id;
    expectStatus(
      'merge',
      await w.member.post(memoriesUrl(w.project, `/${target}/merge`), {
        sourceIds: [duplicate],
        reason: `same as ${secret('merge.reason')}`,
      }),
      200,
    );
    const wider = (await store(w.agent, w.project, { content: 'Wider soon', scope: 'private' })).memory.id;
    const proposed = await w.agent.post(memoriesUrl(w.project, `/${wider}/promotions`), {
      toScope: 'project',
      note: `needed for ${secret('promotion.note')}`,
    });
    expectStatus('promote', proposed, 201);
    expectStatus(
      'review',
      await orchestrator.post(url(`/reviews/${proposed.body.id}`), {
        decision: 'approve',
        reason: `fine, ${secret('review.reason')}`,
      }),
      200,
    );
    expectStatus(
      'share rule',
      await w.agent.post(url('/share-rules'), { tag: secret('shareRule.tag'), agentId: 'cursor:bob' }),
      201,
    );
    expectStatus(
      'working memory',
      await w.agent.request('PUT', url('/working-memory/deploy'), { value: `token ${secret('workingMemory.value')}` }),
      200,
    );
    expectStatus(
      'event',
      await w.agent.post(url('/events'), {
        kind: 'error',
        summary: `failed with ${secret('event.summary')}`,
        details: { env: { token: secret('event.details') } },
      }),
      201,
    );
    expectStatus(
      'kb document',
      await w.agent.post(url('/kb/documents'), {
        source: connection(secret('kb.source', password)),
        title: `Runbook ${secret('kb.title')}`,
        text: `Connect with ${secret('kb.text')} from the bastion host.`,
      }),
      201,
    );
    expectStatus(
      'session summary',
      await w.agent.post(url('/session/summary'), { text: `Rotated ${secret('sessionSummary.text')}.` }),
      201,
    );
    expectStatus(
      'file summary',
      await w.agent.post(url('/files/summary'), {
        path: 'src/config.ts',
        content: `export const token = '${secret('fileSummary.content')}';\n`,
      }),
      202,
    );
    expectStatus(
      'broadcast',
      await w.agent.post(url('/broadcasts'), {
        type: 'STATUS',
        summary: `working on ${secret('broadcast.summary')}`,
        files: [`secrets/${secret('broadcast.file')}.json`],
      }),
      201,
    );
    expectStatus(
      'project card',
      await w.agent.patch(url('/card'), {
        changes: {
          stack: [`Vault ${secret('card.stack')}`],
          layout: [{ path: `ops/${secret('card.layout.path')}/`, files: 3, summary: `keys ${secret('card.layout')}` }],
          entryPoints: [{ path: `bin/${secret('card.entry.path')}`, why: `boots ${secret('card.entry.why')}` }],
          buildAndTest: [{ command: `make TOKEN=${secret('card.command')}`, why: `uses ${secret('card.build.why')}` }],
          conventions: [`never commit ${secret('card.convention')}`],
          hotFiles: [{ path: `env/${secret('card.hot.path')}`, why: `holds ${secret('card.hot.why')}` }],
          notes: `Staging token ${secret('card.notes')}`,
        },
        note: `rotated ${secret('card.note')}`,
      }),
      200,
    );
    const line = importLine({
      content: `Imported with ${secret('import.content')}`,
      source: { path: connection(secret('import.source.path', password)), line: 3, contentHash: null },
      relations: [{ toId: other, type: 'related_to', note: `imported ${secret('import.relation.note')}` }],
    });
    const header = { format: 'cairn.memories', version: 1, project: w.project, exportedAt: new Date().toISOString() };
    expectStatus(
      'import',
      await w.member.request(
        'POST',
        memoriesUrl(w.project, '/import'),
        `${JSON.stringify(header)}\n${JSON.stringify(line)}\n`,
        { 'content-type': 'application/x-ndjson' },
      ),
      200,
    );

    // Every text, array and JSON column of every table of the tenant's schema.
    const columns = await db.query<{ table_name: string; column_name: string }[]>(
      `SELECT table_name, column_name FROM information_schema.columns
        WHERE table_schema = $1 AND data_type IN ('text', 'ARRAY', 'jsonb', 'json', 'character varying')`,
      [w.tenant.schema],
    );
    expect(columns.length).toBeGreaterThan(40);
    const found: string[] = [];
    for (const { table_name: table, column_name: column } of columns) {
      const [{ text }] = await db.query<{ text: string | null }[]>(
        `SELECT string_agg("${column}"::text, ' ') AS text FROM "${w.tenant.schema}"."${table}"`,
      );
      for (const field of leaked(text ?? '')) found.push(`${field} in ${table}.${column}`);
    }
    expect(found).toEqual([]);
    // And what the writes answered.
    expect(
      responses.flatMap(({ what, body }) => leaked(JSON.stringify(body)).map((field) => `${field} in ${what}`)),
    ).toEqual([]);
  });

  it('returns none of them from the reads of what was stored', async () => {
    const reads = {
      list: await w.agent.get(memoriesUrl(w.project, '?limit=100')),
      search: await w.agent.post(memoriesUrl(w.project, '/search'), { query: 'deploy token configs' }),
      documents: await w.agent.get(url('/kb/documents')),
      kbSearch: await w.agent.post(url('/kb/search'), { query: 'bastion host runbook' }),
      broadcasts: await w.agent.get(url('/broadcasts')),
      card: await w.agent.get(url('/card')),
      cardVersions: await w.agent.get(url('/card/versions')),
      export: await api.app.inject({
        method: 'GET',
        url: memoriesUrl(w.project, '/export'),
        headers: { authorization: `Bearer ${w.member.token}` },
      }),
    };
    const found: string[] = [];
    for (const [what, response] of Object.entries(reads)) {
      const text = 'payload' in response ? response.payload : JSON.stringify(response.body);
      found.push(...leaked(text).map((field) => `${field} in ${what}`));
    }
    const [stored] = (reads.list.body.items as { id: string }[]).filter((item) =>
      JSON.stringify(item).includes('Deploy now'),
    );
    const history = await w.agent.get(memoriesUrl(w.project, `/${stored.id}/history`));
    const related = await w.agent.get(memoriesUrl(w.project, `/${stored.id}/related`));
    found.push(...leaked(JSON.stringify(history.body)).map((field) => `${field} in history`));
    found.push(...leaked(JSON.stringify(related.body)).map((field) => `${field} in related`));
    expect(found).toEqual([]);
    // Placeholders stand where the secrets were.
    expect(JSON.stringify(history.body)).toMatch(/rotated \[SECRET:github-pat:/);
    expect(JSON.stringify(reads.documents.body)).toMatch(/\[SECRET:[a-z-]+:[A-Za-z0-9_-]+\]/);
  });

  it('refuses a secret in a key that later requests name, and stores nothing', async () => {
    const key = `deploy-${githubToken()}`;
    const refused = await w.agent.request('PUT', url(`/working-memory/${encodeURIComponent(key)}`), { value: 'x' });
    expect(refused.status).toBe(400);
    expect(refused.body.error.code).toBe('secret_in_identifier');
    expect(JSON.stringify(refused.body)).not.toContain(key.slice(7));
    const path = await w.agent.post(url('/files/summary'), { path: `src/${githubToken()}.ts`, content: 'x' });
    expect(path.status).toBe(400);
    expect(path.body.error.code).toBe('secret_in_identifier');
    const rows = await db.query<unknown[]>(
      `SELECT key FROM "${w.tenant.schema}".working_memory WHERE key LIKE 'deploy-ghp%'
       UNION ALL SELECT path FROM "${w.tenant.schema}".file_summaries WHERE path LIKE 'src/ghp%'`,
    );
    expect(rows).toEqual([]);
  });

  it('answers a repeat under the same idempotency key, which is stored only as a digest', async () => {
    const key = `retry-${randomUUID()}`;
    const first = await w.agent.request(
      'POST',
      memoriesUrl(w.project),
      { content: 'Once only' },
      {
        'idempotency-key': key,
      },
    );
    const again = await w.agent.request(
      'POST',
      memoriesUrl(w.project),
      { content: 'Once only' },
      {
        'idempotency-key': key,
      },
    );
    expect(first.status).toBe(201);
    expect({ status: again.status, id: again.body.memory.id }).toEqual({ status: 201, id: first.body.memory.id });
    const keys = await db.query<{ key: string }[]>(`SELECT key FROM "${w.tenant.schema}".memory_idempotency_keys`);
    expect(keys.map((row) => row.key)).not.toContain(key);
    expect(keys.every((row) => /^[0-9a-f]{64}$/.test(row.key))).toBe(true);
  });
});
