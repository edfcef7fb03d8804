import { randomUUID } from 'node:crypto';
import { createProject, createTenant, issueToken, type TestClient } from '@cairn/testing';
import { DataSource } from 'typeorm';
import { type ApiHarness, startApi } from './api-harness';
import { memoriesUrl, type MemoryWorld, memoryWorld, store } from './memory-fixtures';

const NDJSON = 'application/x-ndjson';
const AWS_KEY = 'AKIA2E4AYF3B7C5DQGQW';
const SEALED_TEXT = 'Board member Ottoline Farquharson-Vey is on medical leave until March';
const PLACEHOLDER = /\[SECRET:([a-z0-9-]+):([A-Za-z0-9_-]+)\]/;

interface Line {
  id: string;
  content: string;
  sensitive?: boolean;
  secrets?: {
    id: string;
    type: string;
    ruleId: string;
    keyVersion: number;
    ciphertext: string;
    writer: { userId: string | null; agentId: string | null };
  }[];
}

/** Exports: placeholders by default; the sealed originals as ciphertext only for an admin who asks, restorable by import. */
describe('secrets in memory exports and imports', () => {
  let api: ApiHarness;
  let w: MemoryWorld;
  let db: DataSource;
  let sealedId: string;
  let plainId: string;

  const exportText = async (client: TestClient, query = '') => {
    const response = await api.app.inject({
      method: 'GET',
      url: memoriesUrl(w.project, `/export${query}`),
      headers: { authorization: `Bearer ${client.token}` },
    });
    return { status: response.statusCode, text: response.body };
  };
  const linesOf = (text: string): Line[] =>
    text
      .trimEnd()
      .split('\n')
      .slice(1)
      .map((line) => JSON.parse(line) as Line);
  const importText = (client: TestClient, project: string, text: string) =>
    client.request('POST', memoriesUrl(project, '/import'), text, { 'content-type': NDJSON });
  const secretRows = async (sourceIds: string[]) =>
    db.query<{ source_id: string; writer_agent_id: string | null }[]>(
      `SELECT source_id, writer_agent_id FROM "${w.tenant.schema}".secrets
        WHERE source_table = 'memories' AND source_id = ANY($1::text[])`,
      [sourceIds],
    );

  beforeAll(async () => {
    api = await startApi();
    w = await memoryWorld(api);
    db = api.app.get(DataSource);
    sealedId = (await store(w.agent, w.project, { content: SEALED_TEXT, sensitive: true })).memory.id;
    plainId = (await store(w.agent, w.project, { content: `The billing job signs with ${AWS_KEY}` })).memory.id;
  });
  afterAll(() => api.close());

  it('exports placeholders by default, and marks the sensitive memory', async () => {
    const { status, text } = await exportText(w.reader);
    expect(status).toBe(200);
    expect(text).not.toContain(AWS_KEY);
    expect(text).not.toContain('Farquharson');
    const lines = linesOf(text);
    const sealed = lines.find((line) => line.id === sealedId)!;
    expect(sealed.sensitive).toBe(true);
    expect(sealed.content).toMatch(/^\[SECRET:sensitive:/);
    expect(lines.find((line) => line.id === plainId)!.sensitive).toBeUndefined();
    expect(lines.every((line) => line.secrets === undefined)).toBe(true);
  });

  it('refuses ciphertext to everyone but a tenant admin, and an unknown mode to all', async () => {
    for (const client of [w.reader, w.member, w.agent]) {
      const refused = await exportText(client, '?secrets=ciphertext');
      expect(refused.status).toBe(403);
      expect(JSON.parse(refused.text).error.code).toBe('secrets_admin_only');
      expect(refused.text).not.toContain('"secrets":');
    }
    expect((await exportText(w.admin, '?secrets=plaintext')).status).toBe(400);
  });

  it("gives an admin each placeholder's original as ciphertext with its data-key version, never the value", async () => {
    const { status, text } = await exportText(w.admin, '?secrets=ciphertext');
    expect(status).toBe(200);
    expect(text).not.toContain(AWS_KEY);
    expect(text).not.toContain('Farquharson');
    const lines = linesOf(text);
    const sealed = lines.find((line) => line.id === sealedId)!;
    const plain = lines.find((line) => line.id === plainId)!;
    expect(sealed.secrets).toEqual([
      {
        id: PLACEHOLDER.exec(sealed.content)![2],
        type: 'sensitive',
        ruleId: 'sensitive',
        keyVersion: 1,
        ciphertext: expect.any(String),
        writer: { userId: null, agentId: 'claude-code:alice' },
      },
    ]);
    expect(plain.secrets).toEqual([
      expect.objectContaining({ id: PLACEHOLDER.exec(plain.content)![2], type: expect.stringMatching(/aws/) }),
    ]);
    for (const secret of [...sealed.secrets!, ...plain.secrets!]) {
      const bytes = Buffer.from(secret.ciphertext, 'base64');
      expect(bytes.toString('latin1')).not.toContain('Farquharson');
      expect(bytes.toString('latin1')).not.toContain(AWS_KEY);
    }
  });

  it('restores the originals when an admin imports the backup into the same tenant', async () => {
    const backup = (await exportText(w.admin, '?secrets=ciphertext')).text;
    const header = backup.split('\n')[0];
    const lines = linesOf(backup).filter((line) => line.id === sealedId || line.id === plainId);
    const sealedPlaceholder = PLACEHOLDER.exec(lines.find((line) => line.id === sealedId)!.content)![2];

    // Lost: deleting the memories takes their originals with them.
    for (const id of [sealedId, plainId]) {
      expect((await w.agent.request('DELETE', memoriesUrl(w.project, `/${id}`))).status).toBe(204);
    }
    expect(await secretRows([sealedId, plainId])).toEqual([]);
    expect((await w.admin.get(`/v1/projects/${w.project}/secrets/${sealedPlaceholder}`)).status).toBe(404);

    // The deleted rows keep their ids (tombstones), so the backup comes back under new ones.
    const renamed = lines.map((line) => ({ ...line, id: randomUUID(), supersededBy: null, relations: [] }));
    const file = `${header}\n${renamed.map((line) => JSON.stringify(line)).join('\n')}\n`;

    const byMember = await importText(w.member, w.otherProject, file);
    expect(byMember.status).toBe(403);

    const imported = await importText(w.admin, w.otherProject, file);
    expect(imported.status).toBe(200);
    expect(imported.body.imported).toBe(2);
    const restoredSealed = renamed.find((line) => line.content.includes(sealedPlaceholder))!;
    const got = await w.admin.get(memoriesUrl(w.otherProject, `/${restoredSealed.id}`));
    expect(got.body).toMatchObject({ sensitive: true, content: `[SECRET:sensitive:${sealedPlaceholder}]` });
    const secretUrl = `/v1/projects/${w.otherProject}/secrets/${sealedPlaceholder}`;
    expect((await w.admin.get(secretUrl)).body.value).toBe(SEALED_TEXT);
    // Its writer is the writer again (not only the admin who imported it).
    const alice = api.client.as(
      (
        await issueToken(api.admin, w.tenant.slug, {
          role: 'agent',
          projects: [w.otherProject],
          agentId: 'claude-code:alice',
        })
      ).token,
    );
    expect((await alice.get(secretUrl)).body.value).toBe(SEALED_TEXT);
    const rows = await secretRows(renamed.map((line) => line.id));
    expect(rows).toHaveLength(2);
    expect(rows.every((row) => row.writer_agent_id === 'claude-code:alice')).toBe(true);
  });

  it('refuses a tampered envelope and one from another tenant, naming the line, writing nothing', async () => {
    const plainText = `The billing job signs with ${AWS_KEY}`;
    const id = (await store(w.agent, w.project, { content: plainText })).memory.id;
    const backup = (await exportText(w.admin, '?secrets=ciphertext')).text;
    const header = backup.split('\n')[0];
    const line = linesOf(backup).find((candidate) => candidate.id === id)!;
    const bytes = Buffer.from(line.secrets![0].ciphertext, 'base64');
    bytes[bytes.length - 1] ^= 0x01;
    const tampered = {
      ...line,
      id: randomUUID(),
      secrets: [{ ...line.secrets![0], ciphertext: bytes.toString('base64') }],
    };
    const refused = await importText(w.admin, w.otherProject, `${header}\n${JSON.stringify(tampered)}\n`);
    expect(refused.status).toBe(400);
    expect(JSON.stringify(refused.body)).toContain('secrets.0.ciphertext');
    expect((await w.admin.get(memoriesUrl(w.otherProject, `/${tampered.id}`))).status).toBe(404);

    // Originals only for placeholders the line carries; a sensitive line's content is its placeholder.
    const detached = { ...line, id: randomUUID(), content: 'The billing job signs with a role now' };
    const claimed = { ...line, id: randomUUID(), secrets: undefined, sensitive: true };
    for (const bad of [detached, claimed]) {
      const response = await importText(w.admin, w.otherProject, `${header}\n${JSON.stringify(bad)}\n`);
      expect(response.status).toBe(400);
      expect((await w.admin.get(memoriesUrl(w.otherProject, `/${bad.id}`))).status).toBe(404);
    }

    const other = await createTenant(api.admin);
    const otherProject = (await createProject(api.admin, other.slug)).slug;
    const otherAdmin = api.client.as((await issueToken(api.admin, other.slug, { role: 'admin', projects: '*' })).token);
    const foreign = await importText(
      otherAdmin,
      otherProject,
      `${header}\n${JSON.stringify({ ...line, id: randomUUID() })}\n`,
    );
    expect(foreign.status).toBe(400);
    expect(JSON.stringify(foreign.body)).toContain('not sealed by this tenant');
  });
});
