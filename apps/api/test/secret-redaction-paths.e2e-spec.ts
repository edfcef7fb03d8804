import { createHash } from 'node:crypto';
import { DataSource } from 'typeorm';
import { type ApiHarness, startApi } from './api-harness';
import { type MemoryWorld, memoryWorld } from './memory-fixtures';

const GITHUB_TOKEN = 'ghp_Zq8vN3kT5wR1yL7pC2xM9bH4dF6gJ0sA1b2c';
const DB_PASSWORD = 'Xk29fLq7rTzQ';
const DB_URL = `postgres://app:${DB_PASSWORD}@db.internal:5432/app`;
const PLACEHOLDER = /\[SECRET:([a-z0-9-]+):([A-Za-z0-9_-]+)\]/;

/** Working memory, the knowledge base, session events and summaries: the write paths besides memories. */
describe('secrets on the other write paths (REST)', () => {
  let api: ApiHarness;
  let w: MemoryWorld;
  let db: DataSource;
  const url = (suffix: string) => `/v1/projects/${w.project}${suffix}`;
  const reveal = async (text: string) => {
    const id = PLACEHOLDER.exec(text)![2];
    return (await w.agent.get(url(`/secrets/${id}`))).body.value as string;
  };
  /** Every text column of the tenant's tables that hold what these paths write. */
  const storedTexts = async () =>
    JSON.stringify(
      await db.query(
        `SELECT (SELECT json_agg(value) FROM "${w.tenant.schema}".working_memory) AS wm,
                (SELECT json_agg(content) FROM "${w.tenant.schema}".kb_chunks) AS chunks,
                (SELECT json_agg(json_build_array(summary, details)) FROM "${w.tenant.schema}".session_events) AS events`,
      ),
    );

  beforeAll(async () => {
    api = await startApi();
    w = await memoryWorld(api);
    db = api.app.get(DataSource);
  });
  afterAll(() => api.close());

  it('redacts a working-memory value and says so', async () => {
    const response = await w.agent.request('PUT', url('/working-memory/deploy-token'), {
      value: `token ${GITHUB_TOKEN}`,
    });
    expect(response.status).toBe(200);
    expect(response.body.entry.value).toMatch(/^token \[SECRET:github-pat:/);
    expect(response.body.redacted).toEqual([{ type: 'github-pat', count: 1 }]);
    expect(await reveal(response.body.entry.value)).toBe(GITHUB_TOKEN);
  });

  it('redacts knowledge-base text before it is chunked, and search finds the placeholder', async () => {
    const response = await w.agent.post(url('/kb/documents'), {
      source: 'runbooks/db.md',
      text: `# Database\nConnect with ${DB_URL} from the bastion host.`,
    });
    expect(response.status).toBe(201);
    expect(response.body.redacted).toEqual([{ type: expect.any(String), count: 1 }]);
    const found = await w.agent.post(url('/kb/search'), { query: 'bastion host' });
    expect(found.status).toBe(200);
    const text = JSON.stringify(found.body);
    expect(text).toContain('[SECRET:');
    expect(text).not.toContain(DB_PASSWORD);
  });

  it('redacts session events, in the summary and in the details', async () => {
    const response = await w.agent.post(url('/events'), {
      kind: 'error',
      summary: `login failed with ${GITHUB_TOKEN}`,
      details: { env: { url: DB_URL }, tries: 3, list: ['fine', GITHUB_TOKEN] },
    });
    expect(response.status).toBe(201);
    expect(response.body.summary).toMatch(/^login failed with \[SECRET:github-pat:/);
    expect(response.body.details.tries).toBe(3);
    expect(response.body.details.list[0]).toBe('fine');
    expect(response.body.details.list[1]).toMatch(PLACEHOLDER);
    expect(response.body.details.env.url).not.toContain(DB_PASSWORD);
    // What was redacted, over the summary and the details together: types and counts, no value.
    expect(response.body.redacted).toEqual(
      expect.arrayContaining([
        { type: 'github-pat', count: 2 },
        { type: expect.not.stringMatching(/github/), count: 1 },
      ]),
    );
    expect(response.body.redacted).toHaveLength(2);
    expect(JSON.stringify(response.body.redacted)).not.toMatch(/ghp_|Xk29/);

    // Nothing to redact: an empty list, not a missing field; listing events does not carry it.
    const clean = await w.agent.post(url('/events'), { kind: 'decision', summary: 'Keep the v1 webhooks' });
    expect(clean.body.redacted).toEqual([]);
    const listed = await w.agent.get(url('/events?limit=5'));
    expect(listed.body.items[0]).not.toHaveProperty('redacted');
  });

  it('redacts session summaries in the knowledge base and in working memory', async () => {
    const response = await w.agent.post(url('/session/summary'), { text: `Rotated the CI token to ${GITHUB_TOKEN}.` });
    expect(response.status).toBeLessThan(300);
    expect(JSON.stringify(response.body)).not.toContain(GITHUB_TOKEN);
    expect(response.body.redacted).toEqual([{ type: 'github-pat', count: 1 }]);
    expect(response.body.entry.value).toMatch(/^Rotated the CI token to \[SECRET:github-pat:/);

    const clean = await w.agent.post(url('/session/summary'), { text: 'Moved billing to Fastify.' });
    expect(clean.body.redacted).toEqual([]);
  });

  it('redacts what is stored of a file sent for summary, keeping the hash of the file as sent', async () => {
    const content = `export const config = {\n  database: '${DB_URL}',\n};\n`;
    const response = await w.agent.post(url('/files/summary'), { path: 'src/config.ts', content });
    expect(response.status).toBeLessThan(300);
    const [row] = await db.query<{ content: string; content_hash: string }[]>(
      `SELECT content, content_hash FROM "${w.tenant.schema}".file_summaries WHERE path = 'src/config.ts'`,
    );
    expect(row.content).toMatch(PLACEHOLDER);
    expect(row.content).not.toContain(DB_PASSWORD);
    expect(row.content_hash).toContain(createHash('sha256').update(content).digest('hex'));
  });

  it('leaves no value in any stored text', async () => {
    const stored = await storedTexts();
    expect(stored).toContain('[SECRET:');
    for (const value of [GITHUB_TOKEN, DB_PASSWORD]) expect(stored).not.toContain(value);
  });

  it('refuses every path under "reject"', async () => {
    const settings = `/v1/tenants/${w.tenant.slug}/settings`;
    await w.admin.patch(settings, { secrets: 'reject' });
    try {
      const attempts = [
        await w.agent.request('PUT', url('/working-memory/k2'), { value: GITHUB_TOKEN }),
        await w.agent.post(url('/kb/documents'), { source: 'x.md', text: `use ${GITHUB_TOKEN}` }),
        await w.agent.post(url('/events'), { kind: 'custom', summary: `use ${GITHUB_TOKEN}` }),
      ];
      for (const attempt of attempts) {
        expect(attempt.status).toBe(400);
        expect(attempt.body.error.code).toBe('secrets_rejected');
      }
    } finally {
      await w.admin.patch(settings, { secrets: 'redact' });
    }
  });
});
