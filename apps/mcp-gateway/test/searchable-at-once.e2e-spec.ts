import { type TestingModule } from '@nestjs/testing';
import { HashEmbedder, toVectorLiteral } from '@cairn/embeddings';
import { startWorkerContext, TestClient, testConfig, testRedisUrl } from '@cairn/testing';
import { WorkerModule } from '@cairn/worker-app';
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

/**
 * Issue 26: a memory is searchable by meaning when its store answers, not when the worker gets
 * to its job. The api and the gateway run with the built-in embedder (an in-process one) and NO
 * worker until a test starts one; every recall here is semantic-only, so only a vector finds.
 */
interface Agent {
  readonly world: GatewayWorld;
  readonly schema: string;
  readonly project: string;
  readonly rest: TestClient;
  readonly mcp: Client;
}

async function agentIn(world: GatewayWorld): Promise<Agent> {
  const { tenant, projects } = await tenantWithProjects(world, 1);
  const token = await tokenFor(world, tenant.slug, { role: 'agent', projects, agentId: 'agent-fresh' });
  return {
    world,
    schema: tenant.schema,
    project: projects[0],
    rest: new TestClient(world.api).as(token),
    mcp: await connectClient(world.mcpUrl, token),
  };
}

async function storeRest(agent: Agent, content: string): Promise<{ id: string; embedding: string }> {
  const response = await agent.rest.post(`/v1/projects/${agent.project}/memories`, { content });
  expect(response.status).toBe(201);
  return { id: response.body.memory.id as string, embedding: response.body.embedding as string };
}

/** Ids a semantic-only recall returns for `query` (vectors alone: no keyword ranker takes part). */
async function semanticIds(agent: Agent, query: string): Promise<string[]> {
  const found = await agent.rest.post(`/v1/projects/${agent.project}/memories/search`, { query, mode: 'semantic' });
  expect(found.status).toBe(200);
  if (found.body.results.length > 0) expect(found.body.report.mode).toBe('semantic');
  return (found.body.results as { memory: { id: string } }[]).map((hit) => hit.memory.id);
}

async function eventually(check: () => Promise<boolean>, what: string, ms = 15_000): Promise<void> {
  const until = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

function startWorker(world: GatewayWorld): Promise<TestingModule> {
  const config = testConfig(world.database.url, testRedisUrl(), { QUEUE_PREFIX: world.config.queues.prefix }, 'worker');
  return startWorkerContext(WorkerModule.register(config));
}

const LONG_PADDING = ' The rest of this note is routine detail about the build.'.repeat(40);

describe('inline embedding on (the default)', () => {
  let world: GatewayWorld;
  let agent: Agent;
  let worker: TestingModule | undefined;

  beforeAll(async () => {
    world = await startGatewayWorld();
    agent = await agentIn(world);
  });
  afterAll(async () => {
    await agent?.mcp.close();
    await worker?.close();
    await world?.close();
  });

  it('finds a memory stored over REST by meaning as soon as the store answers, with no worker', async () => {
    const stored = await storeRest(agent, 'Quokka telemetry is sampled at forty hertz on the ingest tier');
    // The contract is unchanged: the job is still enqueued (a no-op for the worker now).
    expect(stored.embedding).toBe('queued');
    expect(await semanticIds(agent, 'quokka telemetry sampled hertz')).toContain(stored.id);
  });

  it('finds a memory stored through MCP the same way', async () => {
    const stored = await callTool(agent.mcp, 'memory_store', {
      content: 'Wombat invoices are archived to cold storage after ninety days',
    });
    expect(stored.isError).toBe(false);
    expect(await semanticIds(agent, 'wombat invoices archived cold storage')).toContain(stored.structured.memory.id);
  });

  it('leaves a text over EMBEDDING_INLINE_MAX_CHARS to the queue: found by meaning once the worker runs', async () => {
    const stored = await storeRest(agent, `Platypus migrations run in a maintenance window.${LONG_PADDING}`);
    expect(await semanticIds(agent, 'platypus migrations maintenance window')).not.toContain(stored.id);
    worker = await startWorker(world);
    await eventually(
      async () => (await semanticIds(agent, 'platypus migrations maintenance window')).includes(stored.id),
      'the worker to embed the long memory',
    );
  });

  it('keeps only the newest text’s vector when edits race the inline embeds', async () => {
    const { id } = await storeRest(agent, 'Echidna builds use the version one toolchain');
    const texts = Array.from({ length: 6 }, (_, i) => `Echidna builds use the version ${i + 2} toolchain`);
    const updates = await Promise.all(
      texts.map((content) => agent.rest.request('PATCH', `/v1/projects/${agent.project}/memories/${id}`, { content })),
    );
    for (const update of updates) expect(update.status).toBe(200);
    const dataSource = world.api.get(DataSource);
    const row = async () =>
      (
        await dataSource.query<{ content: string; fresh: boolean }[]>(
          `SELECT content, embedded_hash = content_hash AS fresh FROM "${agent.schema}".memories WHERE id = $1`,
          [id],
        )
      )[0];
    await eventually(async () => (await row())?.fresh === true, 'the final text to have its vector');
    const final = (await row()).content;
    const [vector] = await new HashEmbedder().embed([final]);
    const [match] = await dataSource.query<{ distance: number }[]>(
      `SELECT embedding <=> $2::vector AS distance FROM "${agent.schema}".memories WHERE id = $1`,
      [id, toVectorLiteral(vector)],
    );
    expect(match.distance).toBeLessThan(1e-6);
  });
});

describe('inline embedding off', () => {
  let world: GatewayWorld;
  let agent: Agent;
  let worker: TestingModule | undefined;

  beforeAll(async () => {
    world = await startGatewayWorld({ overrides: { EMBEDDING_INLINE: 'false' } });
    agent = await agentIn(world);
  });
  afterAll(async () => {
    await agent?.mcp.close();
    await worker?.close();
    await world?.close();
  });

  it('is searchable by meaning only once the worker has embedded it', async () => {
    const stored = await storeRest(agent, 'Numbat dashboards refresh every fifteen seconds');
    expect(await semanticIds(agent, 'numbat dashboards refresh')).not.toContain(stored.id);
    worker = await startWorker(world);
    await eventually(
      async () => (await semanticIds(agent, 'numbat dashboards refresh')).includes(stored.id),
      'the worker to embed the memory',
    );
  });
});
