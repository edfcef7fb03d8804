import { type Client } from '@modelcontextprotocol/sdk/client/index.js';
import { TestClient } from '@cairn/testing';
import {
  callTool,
  connectClient,
  type GatewayWorld,
  startGatewayWorld,
  tenantWithProjects,
  tokenFor,
} from './gateway-harness';

/** Not the defaults, so a schema that states the default (or the absolute maximum) is caught. */
const MEMORY_MAX = 9_000;
const DOCUMENT_MAX = 20_000;

/** Visible text of exactly `length` characters, nothing to trim at either end. */
const textOf = (length: number) => `${'lorem ipsum dolor '.repeat(Math.ceil(length / 18)).slice(0, length - 1)}x`;

type JsonSchema = { type?: unknown; maxLength?: number; properties?: Record<string, JsonSchema> };

/**
 * Issue 22, snag 13: memory_store advertised `maxLength: 100000` for content and refused
 * anything over 8,000 characters. Every length limit a tool or REST schema states is the one
 * the server enforces: a text of exactly that length is taken, one character more is refused
 * for its length. Run with limits other than the defaults, which the schemas must follow.
 */
describe('advertised and enforced length limits', () => {
  let world: GatewayWorld;
  let mcp: Client;
  let rest: TestClient;
  let project: string;
  let n = 0;

  beforeAll(async () => {
    world = await startGatewayWorld({
      overrides: { MEMORY_CONTENT_MAX_CHARS: String(MEMORY_MAX), KB_DOCUMENT_MAX_CHARS: String(DOCUMENT_MAX) },
    });
    const acme = await tenantWithProjects(world, 1);
    project = acme.projects[0];
    const token = await tokenFor(world, acme.tenant.slug, {
      role: 'member',
      projects: [project],
      agentId: 'limits',
      toolsets: ['core', 'context', 'knowledge', 'harness'],
    });
    mcp = await connectClient(world.mcpUrl, token);
    rest = new TestClient(world.api).as(token);
  });
  afterAll(async () => {
    await mcp?.close();
    await world?.close();
  });

  /** Arguments that make a valid call of the tool with `text` in the field. */
  const probes: Record<string, (text: string) => Promise<Record<string, unknown>>> = {
    'memory_store.content': (text) => Promise.resolve({ content: text }),
    'memory_update.content': async (text) => {
      const stored = await callTool(mcp, 'memory_store', { content: `To be updated ${(n += 1)}` });
      return { id: stored.structured.memory.id, content: text };
    },
    'kb_index.text': (text) => Promise.resolve({ source: `docs/limit-${(n += 1)}.md`, text }),
    'file_summary.content': (text) => Promise.resolve({ path: `src/limit-${(n += 1)}.ts`, content: text }),
    'extract_facts.transcript': (text) => Promise.resolve({ transcript: text }),
    'session_summarize.summary': (text) => Promise.resolve({ summary: text }),
    'session_summarize.transcript': (text) => Promise.resolve({ transcript: text }),
  };

  it('takes a text as long as every tool schema says, and refuses one character more', async () => {
    const { tools } = await mcp.listTools();
    const limited = tools.flatMap((tool) =>
      Object.entries((tool.inputSchema as JsonSchema).properties ?? {})
        .filter(([, property]) => typeof property.maxLength === 'number')
        .map(([field, property]) => ({ tool: tool.name, field, max: property.maxLength! })),
    );
    // Every stated limit has a probe: a new one must be checked here too.
    expect(limited.map(({ tool, field }) => `${tool}.${field}`).sort()).toEqual(Object.keys(probes).sort());
    expect(limited).toEqual(
      expect.arrayContaining([
        { tool: 'memory_store', field: 'content', max: MEMORY_MAX },
        { tool: 'memory_update', field: 'content', max: MEMORY_MAX },
        { tool: 'kb_index', field: 'text', max: DOCUMENT_MAX },
      ]),
    );
    const outcomes: string[] = [];
    for (const { tool, field, max } of limited) {
      const probe = probes[`${tool}.${field}`];
      const atLimit = await callTool(mcp, tool, await probe(textOf(max)));
      const over = await callTool(mcp, tool, await probe(textOf(max + 1)));
      outcomes.push(
        `${tool}.${field} (${max}): ${atLimit.isError ? `refused: ${atLimit.text.slice(0, 120)}` : 'taken'}, ` +
          `+1 ${over.isError && /at most|too (long|large)/.test(over.text) ? 'refused for its length' : `not refused: ${over.text.slice(0, 120)}`}`,
      );
    }
    expect(outcomes).toEqual(
      limited.map(({ tool, field, max }) => `${tool}.${field} (${max}): taken, +1 refused for its length`),
    );
  });

  it('states the configured limits in the OpenAPI document and enforces them on REST', async () => {
    const doc = (await world.admin.get('/docs/json')).body;
    const bodyOf = (path: string, method: string): JsonSchema => {
      const ref: string = doc.paths[path][method].requestBody.content['application/json'].schema.$ref;
      return doc.components.schemas[ref.split('/').pop()!];
    };
    const memories = '/v1/projects/{project}/memories';
    expect(bodyOf(memories, 'post').properties!.content.maxLength).toBe(MEMORY_MAX);
    expect(bodyOf(`${memories}/{id}`, 'patch').properties!.content.maxLength).toBe(MEMORY_MAX);
    expect(bodyOf('/v1/projects/{project}/kb/documents', 'post').properties!.text.maxLength).toBe(DOCUMENT_MAX);
    expect(JSON.stringify(doc)).not.toContain('x-cairn');

    const url = `/v1/projects/${project}`;
    expect((await rest.post(`${url}/memories`, { content: textOf(MEMORY_MAX) })).status).toBe(201);
    expect((await rest.post(`${url}/memories`, { content: textOf(MEMORY_MAX + 1) })).status).toBe(400);
    const document = (text: string) => rest.post(`${url}/kb/documents`, { source: `rest-${(n += 1)}.md`, text });
    expect((await document(textOf(DOCUMENT_MAX))).status).toBe(201);
    expect((await document(textOf(DOCUMENT_MAX + 1))).status).toBe(400);
  });
});
