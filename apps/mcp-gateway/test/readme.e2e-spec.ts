import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TEST_ADMIN_TOKEN } from '@cairn/testing';
import { type GatewayWorld, startGatewayWorld } from './gateway-harness';
import { bash, README_API, README_MCP_URL, readmeBlock, REPO } from './readme-commands';

/**
 * A new user's path through README.md, its blocks run as printed in one bash session: "First
 * tenant, user and token" (in a directory whose .cairn/secrets.json holds the admin token, as
 * `npm start` leaves it), the agent token of "Connect an agent", then the MCP Inspector check
 * from the repository root. Only the addresses change: the README's local ports become the
 * test api's and gateway's.
 */
describe('the README, followed verbatim', () => {
  let world: GatewayWorld;
  let home: string;
  let api: string;

  beforeAll(async () => {
    world = await startGatewayWorld();
    await world.api.listen(0, '127.0.0.1');
    api = `127.0.0.1:${(world.api.getHttpServer().address() as { port: number }).port}`;
    home = mkdtempSync(join(tmpdir(), 'cairn-readme-'));
    mkdirSync(join(home, '.cairn'));
    writeFileSync(join(home, '.cairn', 'secrets.json'), JSON.stringify({ adminToken: TEST_ADMIN_TOKEN }));
  });
  afterAll(async () => {
    await world?.close();
    if (home) rmSync(home, { recursive: true, force: true });
  });

  it('creates the first tenant, user and tokens, then lists the tools with the Inspector', async () => {
    const local = (block: string) =>
      block.replaceAll(README_API, api).replaceAll(README_MCP_URL, world.mcpUrl).trimEnd();
    const script = [
      local(readmeBlock('require("./.cairn/secrets.json")')),
      'echo "::alice=$ALICE"',
      'echo "::user-token=$CAIRN_TOKEN"',
      local(readmeBlock('"agentId":"claude-code:alice","projects":["web-app"],"defaultProject":"web-app"')),
      'echo "::agent-token=$CAIRN_TOKEN"',
      `cd ${JSON.stringify(REPO)}`,
      `${local(readmeBlock('@modelcontextprotocol/inspector'))} > ${JSON.stringify(join(home, 'tools.json'))}`,
      'echo "::inspector=$?"',
    ].join('\n');
    const run = await bash(script, { cwd: home });
    const marker = (name: string) => new RegExp(`^::${name}=(.*)$`, 'm').exec(run.stdout)?.[1];
    const explain = `stdout:\n${run.stdout}\nstderr:\n${run.stderr.slice(-2_000)}`;

    expect({ alice: marker('alice'), explain }).toMatchObject({ alice: expect.stringMatching(/^[0-9a-f-]{36}$/) });
    expect(marker('user-token')).toMatch(/^cairn_st_/);
    expect(marker('agent-token')).toMatch(/^cairn_st_/);
    expect(marker('agent-token')).not.toBe(marker('user-token'));
    // The listing shows the user token's record: scoped to web-app, which is therefore its default.
    expect(run.stdout).toMatch(
      /"agentId":"claude-code:alice","role":"agent","projects":\["web-app"\],"defaultProject":"web-app"/,
    );
    expect(run.stdout.replace(/^::.*$/gm, '')).not.toContain(marker('user-token'));
    expect({ inspector: marker('inspector'), explain }).toMatchObject({ inspector: '0' });
    const tools = JSON.parse(readFileSync(join(home, 'tools.json'), 'utf8')) as { tools: { name: string }[] };
    expect(tools.tools.map((tool) => tool.name)).toEqual(expect.arrayContaining(['memory_store', 'recall_context']));
  }, 120_000);
});
