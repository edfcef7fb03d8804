import { AuditBuffer } from '@cairn/audit';
import { type Client } from '@modelcontextprotocol/sdk/client/index.js';
import { DataSource } from 'typeorm';
import {
  callTool,
  connectClient,
  type GatewayWorld,
  startGatewayWorld,
  tenantWithProjects,
  tokenFor,
} from './gateway-harness';

const AWS_KEY = 'AKIA2E4AYF3B7C5DQGQW';
const PLACEHOLDER = /\[SECRET:([a-z0-9-]+):([A-Za-z0-9_-]+)\]/;

/** memory_store redacts through the SDK's real client; secret_get (toolset `secrets`) reads the original back. */
describe('secrets over MCP', () => {
  let world: GatewayWorld;
  let schema: string;
  let writer: Client;
  let otherAgent: Client;
  let coreOnly: Client;
  let stranger: Client;
  const clients: Client[] = [];

  beforeAll(async () => {
    world = await startGatewayWorld();
    const acme = await tenantWithProjects(world, 1);
    const other = await tenantWithProjects(world, 1);
    schema = acme.tenant.schema;
    const connect = async (tenant: string, body: Parameters<typeof tokenFor>[2]) => {
      const client = await connectClient(world.mcpUrl, await tokenFor(world, tenant, body));
      clients.push(client);
      return client;
    };
    const slug = acme.tenant.slug;
    const projects = acme.projects;
    writer = await connect(slug, {
      role: 'agent',
      projects,
      agentId: 'agent-w',
      toolsets: ['core', 'context', 'secrets'],
    });
    otherAgent = await connect(slug, { role: 'agent', projects, agentId: 'agent-o', toolsets: ['core', 'secrets'] });
    coreOnly = await connect(slug, { role: 'agent', projects, agentId: 'agent-w2' });
    stranger = await connect(other.tenant.slug, {
      role: 'admin',
      projects: '*',
      defaultProject: other.projects[0],
      toolsets: ['core', 'secrets'],
    });
  });
  afterAll(async () => {
    for (const client of clients) await client.close();
    await world?.close();
  });

  it('stores the placeholder, reports what it redacted, and returns the original only to its writer', async () => {
    const stored = await callTool(writer, 'memory_store', { content: `The CI deploys with ${AWS_KEY}` });
    expect(stored.isError).toBe(false);
    expect(stored.structured.memory.content).not.toContain(AWS_KEY);
    expect(stored.structured.redacted).toEqual([{ type: expect.stringMatching(/aws/), count: 1 }]);
    expect(stored.text).toMatch(/Secrets replaced by placeholders: .*aws.* ×1/);
    const id = PLACEHOLDER.exec(stored.structured.memory.content)![2];

    const got = await callTool(writer, 'secret_get', { id });
    expect(got.isError).toBe(false);
    expect(got.structured).toMatchObject({ id, value: AWS_KEY, sourceTable: 'memories' });

    const denied = await callTool(otherAgent, 'secret_get', { id });
    const missing = await callTool(otherAgent, 'secret_get', { id: 'AAAAAAAAAAAAAAAAAAAAAA' });
    expect(denied.isError).toBe(true);
    expect(denied.text).toBe(missing.text);
    expect(denied.text).toMatch(/not_found/);
    expect((await callTool(stranger, 'secret_get', { id })).text).toMatch(/not_found/);

    const db = world.api.get(DataSource);
    await world.gateways[0].app.get(AuditBuffer).flush();
    const audited = await db.query<{ outcome: string; details: unknown }[]>(
      `SELECT outcome, details FROM "${schema}".audit_log WHERE action = 'mcp.secret_get' ORDER BY id`,
    );
    expect(audited.map((row) => row.outcome)).toEqual(['success', 'failure', 'failure']);
    expect(JSON.stringify(audited)).not.toContain(AWS_KEY);
  });

  it('refuses a write under "reject" and bad arguments naming types and fields, never a value', async () => {
    const refusedKey = 'AKIA5K7M2P4R6T3W5Y7Z';
    await world.api.get(DataSource).query(
      `INSERT INTO "${schema}".tenant_settings (key, value) VALUES ('secrets', '{"mode":"reject"}')
       ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value`,
    );
    try {
      const refused = await callTool(writer, 'memory_store', { content: `use ${refusedKey}` });
      expect(refused.isError).toBe(true);
      expect(refused.text).toMatch(/secrets_rejected/);
      expect(refused.text).toContain('aws-access-token');
      expect(refused.text).not.toContain(refusedKey);
    } finally {
      await world.api.get(DataSource).query(`DELETE FROM "${schema}".tenant_settings WHERE key = 'secrets'`);
    }
    // A secret pasted as an argument's name: the error names the argument by its length only.
    const unknown = await callTool(writer, 'memory_store', { content: 'fine', [refusedKey]: 1 });
    expect(unknown.isError).toBe(true);
    expect(unknown.text).toContain('unknown argument(s): <a 20-character name>');
    expect(unknown.text).not.toContain(refusedKey);
  });

  it('reports what session_event and session_summarize redacted, in the result and the text', async () => {
    const event = await callTool(writer, 'session_event', {
      kind: 'error',
      summary: `deploy failed with ${AWS_KEY}`,
      details: { retried: [AWS_KEY] },
    });
    expect(event.isError).toBe(false);
    expect(event.structured.summary).toMatch(/^deploy failed with \[SECRET:/);
    expect(event.structured.redacted).toEqual([{ type: expect.stringMatching(/aws/), count: 2 }]);
    expect(event.text).toMatch(/Secrets replaced by placeholders: .*aws.* ×2/);

    const summary = await callTool(writer, 'session_summarize', { summary: `Rotated the key ${AWS_KEY} today` });
    expect(summary.isError).toBe(false);
    expect(summary.structured.filed.redacted).toEqual([{ type: expect.stringMatching(/aws/), count: 1 }]);
    expect(summary.text).toMatch(/Secrets replaced by placeholders: .*aws.* ×1/);
    expect(JSON.stringify([event, summary])).not.toContain(AWS_KEY);

    const plain = await callTool(writer, 'session_event', { kind: 'decision', summary: 'Keep v1 webhooks' });
    expect(plain.structured.redacted).toEqual([]);
    expect(plain.text).not.toMatch(/Secrets/);
  });

  it('seals a sensitive memory whole: tools show the placeholder, secret_get the original, audit neither', async () => {
    const content = 'Incident contact is Perpetua Xanthoudakis, personal phone on file';
    const stored = await callTool(writer, 'memory_store', { content, sensitive: true, keywords: ['incident contact'] });
    expect(stored.isError).toBe(false);
    expect(stored.structured.memory).toMatchObject({ sensitive: true, keywords: ['incident contact'] });
    expect(stored.structured.memory.content).toMatch(/^\[SECRET:sensitive:[A-Za-z0-9_-]{22}\]$/);
    expect(stored.text).toContain('Content encrypted');
    expect(stored.text).not.toContain('Xanthoudakis');
    const id = PLACEHOLDER.exec(stored.structured.memory.content)![2];

    for (const read of [
      await callTool(otherAgent, 'memory_get', { id: stored.structured.memory.id }),
      await callTool(otherAgent, 'memory_recall', { query: 'incident contact' }),
      await callTool(otherAgent, 'memory_list', {}),
    ]) {
      expect(read.isError).toBe(false);
      expect(JSON.stringify(read)).not.toContain('Xanthoudakis');
    }
    expect((await callTool(writer, 'secret_get', { id })).structured).toMatchObject({
      type: 'sensitive',
      value: content,
    });
    expect((await callTool(otherAgent, 'secret_get', { id })).text).toMatch(/not_found/);

    // memory_update keeps it sealed; new content gets a new placeholder.
    const updated = await callTool(writer, 'memory_update', {
      id: stored.structured.memory.id,
      content: 'Incident contact is now the on-call rota',
    });
    expect(updated.structured.memory.sensitive).toBe(true);
    const next = PLACEHOLDER.exec(updated.structured.memory.content)![2];
    expect(next).not.toBe(id);
    expect((await callTool(writer, 'secret_get', { id: next })).structured.value).toBe(
      'Incident contact is now the on-call rota',
    );
    const refused = await callTool(writer, 'memory_update', { id: stored.structured.memory.id, sensitive: false });
    expect(refused.isError).toBe(true);
    expect(refused.text).toMatch(/content_required/);

    await world.gateways[0].app.get(AuditBuffer).flush();
    const audit = await world.api.get(DataSource).query(`SELECT details FROM "${schema}".audit_log`);
    expect(JSON.stringify(audit)).not.toContain('Xanthoudakis');
    expect(JSON.stringify(audit)).not.toContain('on-call rota');
  });

  it('is not in the default toolsets', async () => {
    const { tools } = await coreOnly.listTools();
    expect(tools.map((tool) => tool.name)).not.toContain('secret_get');
    expect(tools.map((tool) => tool.name)).toContain('memory_store');
  });
});
