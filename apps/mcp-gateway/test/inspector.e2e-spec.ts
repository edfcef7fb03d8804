import { spawn } from 'node:child_process';
import { dirname, join, resolve } from 'node:path';
import { type GatewayWorld, startGatewayWorld, tenantWithProjects, tokenFor } from './gateway-harness';

const REPO = resolve(__dirname, '../../..');
const INSPECTOR_BIN = join(REPO, 'node_modules/.bin/mcp-inspector-cli');
const INSPECTOR_BUILD = dirname(require.resolve('@modelcontextprotocol/inspector-cli/build/cli.js'));

interface Run {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * The MCP Inspector CLI (a third-party client on its own copy of the SDK) against the
 * listening gateway, the way CI or an operator would run it by hand.
 */
function inspector(url: string, token: string, args: string[]): Promise<Run> {
  // `--cli` mode takes the server URL as its first argument; `--server-url` is for the web UI.
  const argv = [INSPECTOR_BIN, '--cli', url, '--transport', 'http', '--header', `Authorization: Bearer ${token}`];
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [...argv, ...args], {
      // inspector-cli 1.0.3 checks for `../package.json` relative to the working directory but
      // imports it relative to its build folder: run it from there so both agree.
      cwd: INSPECTOR_BUILD,
      timeout: 30_000,
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', fail);
    child.on('close', (code) => done({ code, stdout, stderr }));
  });
}

function json(run: Run): any {
  if (run.code !== 0) throw new Error(`inspector exited ${run.code}: ${run.stderr.slice(-1_000)}`);
  return JSON.parse(run.stdout);
}

describe('MCP Inspector CLI against the gateway', () => {
  let world: GatewayWorld;
  let slug: string;
  let token: string;

  beforeAll(async () => {
    world = await startGatewayWorld();
    const { tenant, projects } = await tenantWithProjects(world, 1);
    slug = tenant.slug;
    token = await tokenFor(world, slug, { role: 'agent', projects, agentId: 'inspector:ci' });
  });
  afterAll(async () => {
    await world?.close();
  });

  it('lists the tools, stores a memory and recalls it', async () => {
    const listed = json(await inspector(world.mcpUrl, token, ['--method', 'tools/list']));
    const names = (listed.tools as { name: string }[]).map((tool) => tool.name);
    expect(names).toEqual(expect.arrayContaining(['memory_store', 'memory_recall']));
    const store = (listed.tools as { name: string; inputSchema: any; annotations?: any }[]).find(
      (tool) => tool.name === 'memory_store',
    );
    expect(store?.inputSchema.properties.content).toBeDefined();
    expect(store?.annotations).toMatchObject({ readOnlyHint: false });

    const content = `Inspector CI check ${Date.now()}: releases are cut from the main branch`;
    const stored = json(
      await inspector(world.mcpUrl, token, [
        '--method',
        'tools/call',
        '--tool-name',
        'memory_store',
        '--tool-arg',
        `content=${content}`,
        'category=decision',
        'importance=4',
      ]),
    );
    expect(stored.isError).toBeFalsy();
    expect(stored.structuredContent.memory).toMatchObject({ content, category: 'decision', importance: 4 });
    const id: string = stored.structuredContent.memory.id;
    expect(stored.content[0].text).toContain(id);

    const recalled = json(
      await inspector(world.mcpUrl, token, [
        '--method',
        'tools/call',
        '--tool-name',
        'memory_recall',
        '--tool-arg',
        'query=which branch are releases cut from',
      ]),
    );
    expect(recalled.isError).toBeFalsy();
    expect(recalled.content[0].text).toContain(id);
    expect(recalled.content[0].text).toContain('releases are cut from the main branch');
  }, 90_000);

  it('shows a tool refusal as an error result and a bad token as a failed run', async () => {
    const invalid = json(
      await inspector(world.mcpUrl, token, [
        '--method',
        'tools/call',
        '--tool-name',
        'memory_store',
        '--tool-arg',
        'importance=9',
      ]),
    );
    expect(invalid.isError).toBe(true);
    expect(invalid.content[0].text).toMatch(/^Error \(invalid_arguments\)/);

    const refused = await inspector(world.mcpUrl, 'cairn_st_not-a-real-token', ['--method', 'tools/list']);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toMatch(/Failed to connect.*-32001.*(Malformed session token|not recognised)/);
    expect(refused.stdout).toBe('');
  }, 60_000);
});
