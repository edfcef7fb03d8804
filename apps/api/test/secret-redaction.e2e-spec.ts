import { createProject, createTenant, issueToken } from '@cairn/testing';
import { DataSource } from 'typeorm';
import { type ApiHarness, startApi } from './api-harness';
import { importLine, memoriesUrl, type MemoryWorld, memoryWorld } from './memory-fixtures';

// Synthetic but format-valid: an AWS access key id and a Postgres URL with a password.
const AWS_KEY = 'AKIA2E4AYF3B7C5DQGQW';
const DB_PASSWORD = 'Xk29fLq7rTzQ';
const DB_URL = `postgres://app:${DB_PASSWORD}@db.internal:5432/app`;
const PLACEHOLDER = /\[SECRET:([a-z0-9-]+):([A-Za-z0-9_-]+)\]/g;

function placeholders(text: string): { type: string; id: string }[] {
  return [...text.matchAll(PLACEHOLDER)].map((match) => ({ type: match[1], id: match[2] }));
}

describe('secrets on the memory write paths (REST)', () => {
  let api: ApiHarness;
  let w: MemoryWorld;
  let db: DataSource;
  const settingsUrl = () => `/v1/tenants/${w.tenant.slug}/settings`;
  const secretUrl = (id: string, project = w.project) => `/v1/projects/${project}/secrets/${id}`;

  beforeAll(async () => {
    api = await startApi();
    w = await memoryWorld(api);
    db = api.app.get(DataSource);
  });
  afterAll(() => api.close());

  it('stores and returns placeholders for an AWS key and a database password, and says what it redacted', async () => {
    const content = `Deploy uses key ${AWS_KEY} and the database at ${DB_URL}`;
    const response = await w.agent.post(memoriesUrl(w.project), { content, keywords: ['deploy'] });
    expect(response.status).toBe(201);
    const stored: string = response.body.memory.content;
    expect(stored).not.toContain(AWS_KEY);
    expect(stored).not.toContain(DB_PASSWORD);
    expect(stored).toContain('Deploy uses key [SECRET:');
    expect(stored).toContain('@db.internal:5432/app');
    expect(placeholders(stored)).toHaveLength(2);
    expect(response.body.redacted).toEqual(
      expect.arrayContaining([
        { type: expect.stringMatching(/aws/), count: 1 },
        { type: expect.stringMatching(/connection-string|postgres|password/), count: 1 },
      ]),
    );
    const fetched = await w.reader.get(memoriesUrl(w.project, `/${response.body.memory.id}`));
    expect(fetched.body.content).toBe(stored);

    // The same value gets the same placeholder id within the tenant.
    const again = await w.otherAgent.post(memoriesUrl(w.project), { content: `Old key was ${AWS_KEY}` });
    const awsId = placeholders(stored).find((p) => /aws/.test(p.type))!.id;
    expect(placeholders(again.body.memory.content)[0].id).toBe(awsId);
  });

  it('leaves a placeholder already in the text alone (a quoted or re-imported one is not redacted again)', async () => {
    // This id after "[SECRET:aws-access-token:" matched the generic api-key rule before placeholders were skipped.
    const content = 'The billing job signs with [SECRET:aws-access-token:D0vrO1oy1Q3U3aEsWm6Zww]';
    const response = await w.agent.post(memoriesUrl(w.project), { content });
    expect(response.status).toBe(201);
    expect(response.body.memory.content).toBe(content);
    expect(response.body.redacted).toEqual([]);
  });

  it('finds the placeholder in search, never the key', async () => {
    await w.agent.post(memoriesUrl(w.project), { content: `The billing service signs with ${AWS_KEY}` });
    const byKey = await w.reader.post(`/v1/projects/${w.project}/memories/search`, { query: AWS_KEY, mode: 'keyword' });
    expect(byKey.status).toBe(200);
    expect(JSON.stringify(byKey.body)).not.toContain(AWS_KEY);
    const byTopic = await w.reader.post(`/v1/projects/${w.project}/memories/search`, {
      query: 'billing service signs',
      mode: 'keyword',
    });
    const text = JSON.stringify(byTopic.body);
    expect(text).toContain('[SECRET:');
    expect(text).not.toContain(AWS_KEY);
  });

  it('redacts tags and keywords too, and on update', async () => {
    const created = await w.agent.post(memoriesUrl(w.project), {
      content: 'Keys live in the vault',
      keywords: [AWS_KEY],
    });
    expect(created.body.memory.keywords[0]).toMatch(/^\[SECRET:/);
    const updated = await w.agent.patch(memoriesUrl(w.project, `/${created.body.memory.id}`), {
      content: `Rotated to ${DB_URL}`,
    });
    expect(updated.status).toBe(200);
    expect(updated.body.memory.content).not.toContain(DB_PASSWORD);
    expect(updated.body.redacted).toHaveLength(1);
  });

  it('keeps only ciphertext in the secrets table', async () => {
    const rows = await db.query<{ value_encrypted: Buffer; type: string; placeholder_id: string }[]>(
      `SELECT value_encrypted, type, placeholder_id FROM "${w.tenant.schema}".secrets`,
    );
    expect(rows.length).toBeGreaterThanOrEqual(2);
    for (const row of rows) {
      const bytes = row.value_encrypted;
      for (const value of [AWS_KEY, DB_PASSWORD, DB_URL]) {
        expect(bytes.includes(Buffer.from(value, 'utf8'))).toBe(false);
        expect(bytes.toString('latin1')).not.toContain(value);
      }
      expect(row.placeholder_id).toMatch(/^[A-Za-z0-9_-]{22}$/);
    }
  });

  it('returns the original to its writer and an admin, audited; 404 to another agent and another tenant', async () => {
    const response = await w.agent.post(memoriesUrl(w.project), { content: `CI key ${AWS_KEY}` });
    const { id } = placeholders(response.body.memory.content)[0];

    const mine = await w.agent.get(secretUrl(id));
    expect(mine.status).toBe(200);
    expect(mine.body).toMatchObject({ id, value: AWS_KEY, sourceTable: 'memories' });
    const audited = await db.query<{ outcome: string; target: string }[]>(
      `SELECT outcome, target FROM "${w.tenant.schema}".audit_log WHERE action = 'secret.read'`,
    );
    expect(audited).toContainEqual(expect.objectContaining({ outcome: 'success' }));
    expect(JSON.stringify(audited)).not.toContain(AWS_KEY);

    expect((await w.admin.get(secretUrl(id))).body.value).toBe(AWS_KEY);

    // A third agent that never wrote this value: the same 404 as for an id that does not exist.
    const third = api.client.as(
      (await issueToken(api.admin, w.tenant.slug, { role: 'agent', projects: [w.project], agentId: 'zed:dave' })).token,
    );
    const denied = await third.get(secretUrl(id));
    const missing = await third.get(secretUrl('AAAAAAAAAAAAAAAAAAAAAA'));
    expect(denied.status).toBe(404);
    expect(missing.status).toBe(404);
    expect(denied.body.error.code).toBe(missing.body.error.code);
    expect(JSON.stringify(denied.body)).not.toContain(AWS_KEY);

    const other = await createTenant(api.admin);
    const otherProject = (await createProject(api.admin, other.slug)).slug;
    const outsider = api.client.as((await issueToken(api.admin, other.slug, { role: 'admin', projects: '*' })).token);
    expect((await outsider.get(secretUrl(id, otherProject))).status).toBe(404);
    expect((await outsider.get(secretUrl(id))).status).toBe(404);
  });

  it('redacts imported JSON Lines and keeps their originals for the importer', async () => {
    const header = JSON.stringify({ format: 'cairn.memories', version: 1, project: w.project, exportedAt: new Date() });
    const line = importLine({ content: `Imported: the staging DB is ${DB_URL}`, tags: ['db'] });
    const response = await w.member.request(
      'POST',
      memoriesUrl(w.project, '/import'),
      `${header}\n${JSON.stringify(line)}\n`,
      { 'content-type': 'application/x-ndjson' },
    );
    expect(response.status).toBe(200);
    expect(response.body.imported).toBe(1);
    expect(response.body.redacted).toEqual([{ type: expect.any(String), count: 1 }]);
    const stored = await w.reader.get(memoriesUrl(w.project, `/${line.id}`));
    expect(stored.body.content).not.toContain(DB_PASSWORD);
    const { id } = placeholders(stored.body.content)[0];
    expect((await w.member.get(secretUrl(id))).body.value).toContain(DB_PASSWORD);
  });

  it('refuses the write under "reject", naming the types and storing nothing', async () => {
    expect((await w.admin.patch(settingsUrl(), { secrets: 'reject' })).body).toMatchObject({ secrets: 'reject' });
    try {
      const before = await db.query<{ count: string }[]>(`SELECT count(*) FROM "${w.tenant.schema}".memories`);
      const refused = await w.agent.post(memoriesUrl(w.project), { content: `Use ${AWS_KEY} with ${DB_URL}` });
      expect(refused.status).toBe(400);
      expect(refused.body.error.code).toBe('secrets_rejected');
      expect(refused.body.error.message).toMatch(/aws/);
      expect(JSON.stringify(refused.body)).not.toContain(AWS_KEY);
      expect(JSON.stringify(refused.body)).not.toContain(DB_PASSWORD);
      const after = await db.query<{ count: string }[]>(`SELECT count(*) FROM "${w.tenant.schema}".memories`);
      expect(after[0].count).toBe(before[0].count);
      // Text without a secret is still accepted.
      expect((await w.agent.post(memoriesUrl(w.project), { content: 'No secrets here' })).status).toBe(201);
    } finally {
      await w.admin.patch(settingsUrl(), { secrets: 'redact' });
    }
  });

  it('under "allow", audits each write that stores secrets: rule ids, types and counts, never a value', async () => {
    expect((await w.admin.patch(settingsUrl(), { secrets: 'allow' })).status).toBe(200);
    const allowedEntries = () =>
      db.query<{ actor: string; request_id: string | null; details: any; target: string | null }[]>(
        `SELECT actor, request_id, details, target FROM "${w.tenant.schema}".audit_log
         WHERE action = 'secrets.allowed' ORDER BY id`,
      );
    const before = (await allowedEntries()).length;
    try {
      const first = await w.agent.request(
        'POST',
        memoriesUrl(w.project),
        { content: `Two keys ${AWS_KEY} and AKIA7Q2LM4NXZR3TVW5Z, and ${DB_URL}` },
        { 'x-request-id': 'allow-audit-0001' },
      );
      expect(first.status).toBe(201);
      expect(first.body.memory.content).toContain(AWS_KEY);
      expect((await w.agent.post(memoriesUrl(w.project), { content: 'Nothing secret in this one' })).status).toBe(201);
      await w.agent.patch(memoriesUrl(w.project, `/${first.body.memory.id}`), { content: `Only ${DB_URL} now` });

      const entries = (await allowedEntries()).slice(before);
      expect(entries).toHaveLength(2); // the write without a secret leaves none
      expect(entries[0]).toMatchObject({ actor: 'secret-scanner', request_id: 'allow-audit-0001', target: null });
      expect(entries[0].details.total).toBe(3);
      expect(entries[0].details.findings).toEqual(
        expect.arrayContaining([
          { ruleId: 'gitleaks:aws-access-token', type: 'aws-access-token', count: 2 },
          expect.objectContaining({ type: expect.stringMatching(/connection-string/), count: 1 }),
        ]),
      );
      expect(entries[1].details).toMatchObject({ total: 1 });
      for (const value of [AWS_KEY, 'AKIA7Q2LM4NXZR3TVW5Z', DB_PASSWORD, 'db.internal']) {
        expect(JSON.stringify(entries)).not.toContain(value);
      }
    } finally {
      await w.admin.patch(settingsUrl(), { secrets: 'redact' });
    }
    // Under "redact" the originals are sealed, not audited per write.
    await w.agent.post(memoriesUrl(w.project), { content: `Redacted: ${AWS_KEY}` });
    expect((await allowedEntries()).length).toBe(before + 2);
  });

  it('lets only admins change the setting, and validates it', async () => {
    expect((await w.member.patch(settingsUrl(), { secrets: 'allow' })).status).toBe(403);
    expect((await w.admin.patch(settingsUrl(), { secrets: 'sometimes' })).status).toBe(400);
    expect((await w.admin.patch(settingsUrl(), { secrets: 'allow' })).status).toBe(200);
    try {
      const kept = await w.agent.post(memoriesUrl(w.project), { content: `Allowed: ${AWS_KEY}` });
      expect(kept.body.memory.content).toContain(AWS_KEY);
      expect(kept.body.redacted).toEqual([]);
    } finally {
      await w.admin.patch(settingsUrl(), { secrets: 'redact' });
    }
    const audited = await db.query<{ details: unknown }[]>(
      `SELECT details FROM "${w.tenant.schema}".audit_log WHERE action = 'tenant.settings.secrets' ORDER BY id`,
    );
    expect(audited.map((row) => row.details)).toEqual(
      expect.arrayContaining([
        { from: 'redact', to: 'allow' },
        { from: 'allow', to: 'redact' },
      ]),
    );
  });
});
