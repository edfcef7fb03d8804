import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type GatewayWorld, startGatewayWorld, tenantWithProjects, tokenFor } from './gateway-harness';
import { bash, README_MCP_URL, readmeBlock, REPO, type Run, shellQuote } from './readme-commands';

/**
 * The MCP Inspector check exactly as README.md prints it ("Connect an agent"), its line
 * continuations joined, run with bash from the repository root: only pointed at the test
 * gateway and, for the other calls, with its trailing `--method tools/list` replaced.
 */
const command = readmeBlock('@modelcontextprotocol/inspector')
  .replace(/\\\n\s*/g, '')
  .trim();

function json(run: Run): any {
  if (run.code !== 0) throw new Error(`inspector exited ${run.code}: ${run.stderr.slice(-1_000)}`);
  return JSON.parse(run.stdout);
}

describe('the README MCP Inspector command against the gateway', () => {
  let world: GatewayWorld;
  let token: string;

  /** The README command against the test gateway, with `--method tools/list` swapped for `method` when given. */
  const inspector = (bearer: string, method?: string[]) => {
    const text = command.replace(README_MCP_URL, world.mcpUrl);
    const run = method ? text.replace(/--method tools\/list$/, method.join(' ')) : text;
    return bash(run, { env: { CAIRN_TOKEN: bearer } });
  };

  beforeAll(async () => {
    world = await startGatewayWorld();
    const { tenant, projects } = await tenantWithProjects(world, 1);
    token = await tokenFor(world, tenant.slug, { role: 'agent', projects, agentId: 'inspector:ci' });
  });
  afterAll(async () => {
    await world?.close();
  });

  it('is the pinned, maintained Inspector the repository installs, run on the local gateway URL', () => {
    const pkg = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as {
      devDependencies: Record<string, string>;
    };
    const pinned = pkg.devDependencies['@modelcontextprotocol/inspector'];
    expect(pinned).toMatch(/^\d+\.\d+\.\d+$/);
    // npx finds the exact version in node_modules: no download, and CI runs what a user runs.
    expect(command).toMatch(
      new RegExp(`^npx -y @modelcontextprotocol/inspector@${pinned.replace(/\./g, '\\.')} --cli `),
    );
    expect(command).toContain(` ${README_MCP_URL} `);
    expect(command).toContain('--header "Authorization: Bearer $CAIRN_TOKEN"');
    expect(command).toMatch(/--method tools\/list$/);
  });

  it('lists the tools, stores a memory and recalls it', async () => {
    const listed = json(await inspector(token));
    const names = (listed.tools as { name: string }[]).map((tool) => tool.name);
    expect(names).toEqual(expect.arrayContaining(['memory_store', 'memory_recall']));
    const store = (listed.tools as { name: string; inputSchema: any; annotations?: any }[]).find(
      (tool) => tool.name === 'memory_store',
    );
    expect(store?.inputSchema.properties.content).toBeDefined();
    expect(store?.annotations).toMatchObject({ readOnlyHint: false });

    const content = `Inspector CI check ${Date.now()}: releases are cut from the main branch`;
    const stored = json(
      await inspector(token, [
        '--method tools/call --tool-name memory_store --tool-arg',
        shellQuote(`content=${content}`),
        'category=decision importance=4',
      ]),
    );
    expect(stored.isError).toBeFalsy();
    expect(stored.structuredContent.memory).toMatchObject({ content, category: 'decision', importance: 4 });
    const id: string = stored.structuredContent.memory.id;
    expect(stored.content[0].text).toContain(id);

    const recalled = json(
      await inspector(token, [
        '--method tools/call --tool-name memory_recall --tool-arg',
        shellQuote('query=which branch are releases cut from'),
      ]),
    );
    expect(recalled.isError).toBeFalsy();
    expect(recalled.content[0].text).toContain(id);
    expect(recalled.content[0].text).toContain('releases are cut from the main branch');
  }, 90_000);

  it('shows a tool refusal as an error result and a bad token as a failed run naming the reason', async () => {
    const invalid = await inspector(token, ['--method tools/call --tool-name memory_store --tool-arg importance=9']);
    // The Inspector prints the error result and exits non-zero for it.
    expect(invalid.code).not.toBe(0);
    const result = JSON.parse(invalid.stdout);
    expect(result.isError).toBe(true);
    expect(result.content[0].text).toMatch(/^Error \(invalid_arguments\)/);

    const refused = await inspector('cairn_st_not-a-real-token');
    expect(refused.code).not.toBe(0);
    expect(refused.stdout).toBe('');
    expect(refused.stderr).toMatch(/"auth_required".*-32001.*(Malformed session token|not recognised)/);
  }, 60_000);
});
