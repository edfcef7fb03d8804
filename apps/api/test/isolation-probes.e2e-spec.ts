import { type GatewayWorld, startGatewayWorld } from '@cairn/gateway-harness';
import { ToolRegistry } from '@cairn/mcp';
import { mcpProbes } from './isolation/mcp-probes';
import { mcpResourceProbes } from './isolation/mcp-resource-probes';
import { describeOutcomes, mergeOutcomes, type Probe, runProbes } from './isolation/probe-verdict';
import { restProbes } from './isolation/rest-probes';
import { seedVictimWorld, type VictimWorld, victimSnapshot } from './isolation/victim-world';

/**
 * Isolation probes, generated from what the apps actually serve: every REST route the api
 * mounted and every tool the gateway registered, each called with the token of another
 * tenant (with and without a project of the same slug), of another project, of each role the
 * route's permission does not grant, of a colleague agent, and with a revoked, an expired, a
 * malformed token and one whose user is disabled, aimed at real objects of a victim tenant. A
 * probe leaks on a success where a refusal is due or on any of the victim's ids, markers or
 * secrets in any answer (error bodies and headers included); it fails as unreached on an
 * answer that is not a refusal (a validation error: it never reached the check it tests).
 */
describe('isolation probes', () => {
  let world: GatewayWorld;
  let victim: VictimWorld;
  let probes: Probe[];

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
    const mcp = [...mcpProbes(tools, world.mcpUrl, victim), ...(await mcpResourceProbes(world.mcpUrl, victim))];
    probes = [...rest.probes, ...mcp];

    const before = await victimSnapshot(world, victim);
    const started = performance.now();
    // Calls a caller may make and that change things (a colleague storing, indexing, deleting a
    // shared document) run last, so every refusal above is tested against the seeded objects.
    const last = (probe: Probe) => !probe.mustRefuse && !probe.readOnly;
    const first = await runProbes(
      probes.filter((probe) => !last(probe)),
      victim.tokens,
      8,
    );
    const second = await runProbes(probes.filter(last), victim.tokens, 8);
    const failures = [...first.failures, ...second.failures];
    const outcomes = mergeOutcomes(first.outcomes, second.outcomes);
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    const leaked = new Set(failures.filter((failure) => failure.leak).map((failure) => failure.probe)).size;
    const unreached = new Set(failures.filter((failure) => !failure.leak).map((failure) => failure.probe)).size;
    console.log(
      [
        `Isolation probes: ${probes.length} run, ${leaked} leaked${unreached ? `, ${unreached} unreached` : ''} ` +
          `(${rest.probes.length} REST over ${rest.routes.length} routes, ${mcp.length} MCP over ${tools.length} tools and the resource templates; ${seconds} s)`,
        // "answered": session-scoped calls that act on the caller's own tenant, checked for leaks.
        ...describeOutcomes(outcomes),
        ...rest.gaps.map((gap) => `  not aimed at a real victim object: ${gap}`),
        ...failures.map((failure) => `  ${failure.leak ? 'LEAK' : 'UNREACHED'} ${failure.probe}: ${failure.problem}`),
      ].join('\n'),
    );

    // Generated, not hand-listed: a route or tool that stops being probed shows here.
    expect(rest.routes.length).toBeGreaterThanOrEqual(69);
    expect(tools.length).toBeGreaterThanOrEqual(26);
    expect(probes.length).toBeGreaterThanOrEqual(500);
    expect(failures).toEqual([]);
    // Nothing the wrong callers did, refused or allowed, changed what the victim owns.
    expect(await victimSnapshot(world, victim)).toBe(before);
  });

  it("sees a leak when there is one: the same read probes, replayed with the victim's own token", async () => {
    // The owner may read its project: every refusal the probes demand fails, and the answers
    // hold the victim's markers. Read-only probes, so replaying them changes nothing.
    const replayed = probes
      .filter((probe) => probe.caller === 'other-project' && probe.mustRefuse && probe.readOnly)
      .map((probe) => ({ ...probe, caller: 'owner' }));
    expect(replayed.length).toBeGreaterThanOrEqual(20);
    const { failures } = await runProbes(replayed, { owner: victim.victimToken }, 8);
    const flagged = new Set(failures.map((failure) => failure.probe));
    expect(flagged.size).toBe(replayed.length);
    const sawData = failures.filter((failure) => failure.problem.startsWith('victim data in the answer'));
    expect(sawData.map((failure) => failure.probe)).toEqual(
      expect.arrayContaining([
        'REST GET /v1/projects/:project/memories/:id as owner',
        'REST GET /v1/projects/:project/working-memory as owner',
        'MCP memory_get as owner',
        'MCP kb_search as owner',
      ]),
    );
  });
});
