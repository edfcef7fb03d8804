import { type GatewayWorld, startGatewayWorld } from '@cairn/gateway-harness';
import { ToolRegistry } from '@cairn/mcp';
import { mcpProbes } from './isolation/mcp-probes';
import { type Probe, runProbes } from './isolation/probe-verdict';
import { restProbes } from './isolation/rest-probes';
import { seedVictimWorld, type VictimWorld } from './isolation/victim-world';

/**
 * Isolation probes, generated from what the apps actually serve: every REST route the api
 * mounted and every tool the gateway registered, each called with the token of another
 * tenant, of another project, of each role the route's permission does not grant, and with a
 * revoked, an expired and a malformed token, aimed at real objects of a victim tenant. A probe
 * fails on a success where a refusal is due, on an answer that is not a refusal (the probe
 * never reached the check), or on any of the victim's ids, markers or secrets in any answer.
 */
describe('isolation probes', () => {
  let world: GatewayWorld;
  let victim: VictimWorld;

  beforeAll(async () => {
    // No worker runs here: a fetch a probe could start would only wait; don't wait long.
    world = await startGatewayWorld({ overrides: { KB_FETCH_WAIT_MS: '1' } });
    victim = await seedVictimWorld(world);
  });
  afterAll(() => world.close());

  it('refuses every wrong caller on every route and tool, and leaks nothing', async () => {
    const openApi = (await world.admin.get('/docs/json')).body;
    const rest = restProbes(world.api, openApi, victim);
    const tools = world.gateways[0].app.get(ToolRegistry).all();
    const mcp = mcpProbes(tools, world.mcpUrl, victim);
    const probes: Probe[] = [...rest.probes, ...mcp];

    const started = performance.now();
    const failures = await runProbes(probes, 8);
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    const leaked = new Set(failures.map((failure) => failure.probe)).size;
    console.log(
      [
        `Isolation probes: ${probes.length} run, ${leaked} leaked ` +
          `(${rest.probes.length} REST over ${rest.routes.length} routes, ${mcp.length} MCP over ${tools.length} tools; ${seconds} s)`,
        ...rest.gaps.map((gap) => `  not aimed at a real victim object: ${gap}`),
        ...failures.map((failure) => `  LEAK ${failure.probe}: ${failure.problem}`),
      ].join('\n'),
    );

    // Generated, not hand-listed: a route or tool that stops being probed shows here.
    expect(rest.routes.length).toBeGreaterThanOrEqual(69);
    expect(tools.length).toBeGreaterThanOrEqual(26);
    expect(probes.length).toBeGreaterThanOrEqual(500);
    expect(failures).toEqual([]);
  });
});
