import { DEFAULT_TOOLSETS, type Toolset, TOOLSETS } from '@cairn/access';
import { type Client } from '@modelcontextprotocol/sdk/client/index.js';
import { connectClient, type GatewayWorld, startGatewayWorld, tenantWithProjects, tokenFor } from './gateway-harness';

/**
 * What every session costs an agent: each MCP client puts the whole `tools/list` into the
 * model's context at the start of every session. Measured as the SDK client receives it (JSON
 * characters): descriptions, input schemas, output schemas and the whole result. The default
 * toolsets, as a member sees them, must stay within the goal of issue 10; every other toolset
 * within a bound a little above today's size, so that growth is a decision, not an accident.
 */
const DEFAULT_GOAL = { descriptionsAndInputs: 12_000, total: 30_000 };

/** Per toolset (a member's view): descriptions + input schemas, and the whole list. */
const TOOLSET_BOUNDS: Record<Toolset, { descriptionsAndInputs: number; total: number }> = {
  core: { descriptionsAndInputs: 7_800, total: 18_000 },
  context: { descriptionsAndInputs: 3_200, total: 8_500 },
  knowledge: { descriptionsAndInputs: 2_300, total: 5_800 },
  // The topic view (memory_topics, memory_categories) lives here: the default toolsets have no room for it.
  maintenance: { descriptionsAndInputs: 3_000, total: 6_700 },
  // The project card (project_card, project_card_edit): an edit's input spells out every section of the card.
  // and the code index (code_search, code_symbol, context_check): opt-in, so its size is the agent's choice.
  harness: { descriptionsAndInputs: 6_600, total: 18_000 },
  secrets: { descriptionsAndInputs: 600, total: 1_400 },
  web: { descriptionsAndInputs: 700, total: 2_000 },
  sharing: { descriptionsAndInputs: 2_300, total: 8_000 },
  review: { descriptionsAndInputs: 900, total: 2_600 },
  coordination: { descriptionsAndInputs: 3_000, total: 7_200 },
};

interface Size {
  readonly tools: number;
  readonly descriptions: number;
  readonly inputs: number;
  readonly outputs: number;
  readonly descriptionsAndInputs: number;
  readonly total: number;
}

async function sizeOf(client: Client): Promise<Size> {
  const result = await client.listTools();
  const json = (value: unknown) => JSON.stringify(value ?? null).length;
  const descriptions = result.tools.reduce((sum, tool) => sum + (tool.description ?? '').length, 0);
  const inputs = result.tools.reduce((sum, tool) => sum + json(tool.inputSchema), 0);
  const outputs = result.tools.reduce((sum, tool) => sum + json(tool.outputSchema), 0);
  return {
    tools: result.tools.length,
    descriptions,
    inputs,
    outputs,
    descriptionsAndInputs: descriptions + inputs,
    total: json(result),
  };
}

describe('the size of the tool list', () => {
  let world: GatewayWorld;
  const sizes = new Map<string, Size>();

  beforeAll(async () => {
    world = await startGatewayWorld();
    const { tenant } = await tenantWithProjects(world, 1);
    const views: [string, Toolset[]][] = [
      ...TOOLSETS.map((toolset): [string, Toolset[]] => [toolset, [toolset]]),
      ['default', [...DEFAULT_TOOLSETS]],
    ];
    for (const [name, toolsets] of views) {
      const client = await connectClient(
        world.mcpUrl,
        await tokenFor(world, tenant.slug, { role: 'member', toolsets }),
      );
      try {
        sizes.set(name, await sizeOf(client));
      } finally {
        await client.close();
      }
    }
    console.log(`tools/list for a member, in JSON characters\n${table(sizes)}`);
  });
  afterAll(() => world?.close());

  it('meets the goal for the default toolsets: descriptions + input schemas ≤ 12,000, the whole list ≤ 30,000', () => {
    const size = sizes.get('default')!;
    expect(size.tools).toBeGreaterThanOrEqual(19);
    expect(size.descriptionsAndInputs).toBeLessThanOrEqual(DEFAULT_GOAL.descriptionsAndInputs);
    expect(size.total).toBeLessThanOrEqual(DEFAULT_GOAL.total);
  });

  it.each(TOOLSETS)('keeps toolset %s within its bound', (toolset) => {
    const size = sizes.get(toolset)!;
    expect(size.tools).toBeGreaterThan(0);
    expect(size.descriptionsAndInputs).toBeLessThanOrEqual(TOOLSET_BOUNDS[toolset].descriptionsAndInputs);
    expect(size.total).toBeLessThanOrEqual(TOOLSET_BOUNDS[toolset].total);
  });
});

describe('what the tool list leaves to the server', () => {
  let world: GatewayWorld;
  let member: Client;
  /** Not the token's default project. */
  let project: string;

  beforeAll(async () => {
    world = await startGatewayWorld();
    const { tenant, projects } = await tenantWithProjects(world, 2);
    project = projects[1];
    const token = await tokenFor(world, tenant.slug, { role: 'member', defaultProject: projects[0] });
    member = await connectClient(world.mcpUrl, token);
  });
  afterAll(async () => {
    await member?.close();
    await world?.close();
  });

  async function refusal(name: string, args: Record<string, unknown>): Promise<string> {
    const result = await member.callTool({ name, arguments: args });
    expect(result.isError).toBe(true);
    return (result.content as { text: string }[])[0].text;
  }

  it("lists a uuid or date-time by its format, without zod's regular expression", async () => {
    const tools = new Map((await member.listTools()).tools.map((tool) => [tool.name, tool]));
    const input = (name: string) => tools.get(name)!.inputSchema as { properties: Record<string, any> };
    expect(input('memory_get').properties.id).toEqual({ type: 'string', format: 'uuid' });
    expect(input('memory_recall').properties.filters.properties.createdAfter).toEqual({
      type: 'string',
      format: 'date-time',
    });
    expect(JSON.stringify([...tools.values()])).not.toMatch(/\[0-9a-fA-F\]\{8\}|\\d\{4\}/);
  });

  it('still refuses, with a clear error, what the listing no longer spells out', async () => {
    expect(await refusal('memory_get', { id: 'not-a-uuid' })).toMatch(
      /^Error \(invalid_arguments\): Invalid arguments: id: must be a memory id/,
    );
    expect(await refusal('memory_get', { id: '0b7e4c2a-5d1f-4e8a-9c3b-2f6d8e1a4b5' })).toMatch(
      /^Error \(invalid_arguments\): Invalid arguments: id: must be a memory id/,
    );
    expect(await refusal('memory_recall', { query: 'x', filters: { createdAfter: 'yesterday' } })).toMatch(
      /^Error \(invalid_arguments\): Invalid arguments: filters\.createdAfter: /,
    );
    // The project argument is listed as a bare string; the server still wants a slug.
    expect(await refusal('memory_list', { project: 'Not A Slug!' })).toMatch(
      /^Error \(invalid_arguments\): Invalid arguments: project: /,
    );
    // String lengths are the server's to check, and it names the limit.
    expect(await refusal('remember', { key: 'k', value: 'v'.repeat(20_000) })).toMatch(/value: .*at most/);
    // memory_list names memory_recall's filters instead of listing them; they are checked all the same.
    expect(await refusal('memory_list', { filters: { categories: ['gossip'] } })).toMatch(/filters\.categories/);
    expect(await refusal('memory_list', { filters: { nope: true } })).toMatch(/filters/);
  });

  it('accepts what the listing describes', async () => {
    const stored = await member.callTool({
      name: 'memory_store',
      arguments: { content: 'Staging deploys run on merge to main', keywords: ['release'] },
    });
    expect((stored.content as { text: string }[])[0].text).toMatch(/^Stored /);
    const id = (stored.structuredContent as { memory: { id: string } }).memory.id;
    const got = await member.callTool({ name: 'memory_get', arguments: { id } });
    expect(got.isError).toBeFalsy();
    const listed = await member.callTool({
      name: 'memory_list',
      arguments: { filters: { categories: ['fact'], createdAfter: '2020-01-01T00:00:00+02:00' }, limit: 5 },
    });
    expect((listed.structuredContent as { items: unknown[] }).items).toHaveLength(1);
    const elsewhere = await member.callTool({ name: 'memory_list', arguments: { project } });
    expect((elsewhere.structuredContent as { items: unknown[] }).items).toHaveLength(0);
  });
});

function table(sizes: Map<string, Size>): string {
  const columns = ['tools', 'descriptions', 'inputs', 'outputs', 'descriptionsAndInputs', 'total'] as const;
  const head = ['toolsets', 'tools', 'descriptions', 'inputs', 'outputs', 'desc+inputs', 'total'];
  const rows = [...sizes].map(([name, size]) => [name, ...columns.map((column) => String(size[column]))]);
  const widths = head.map((title, index) => Math.max(title.length, ...rows.map((row) => row[index].length)));
  const line = (cells: string[]) =>
    cells.map((cell, index) => (index === 0 ? cell.padEnd(widths[index]) : cell.padStart(widths[index]))).join('  ');
  return [line(head), ...rows.map(line)].join('\n');
}
