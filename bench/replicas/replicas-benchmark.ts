/**
 * Two replicas of each app behind Debian's HAProxy (issue 27, part 4): the built api, gateway
 * and worker (dist/) as six processes, HAProxy health-checking them on /readyz, and under
 * steady MCP load through it: (a) a rolling restart of every replica, (b) kill -9 of one
 * gateway, (c) both workers restarted with embedding jobs queued, (d) a token revoked through
 * one api replica refused by every gateway, and one token's rate limit counted across both
 * gateways. Each has a goal; a goal that does not hold fails the run. See bench/replicas/README.md.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { JobQueue } from '@cairn/jobs';
import { RpcClient } from '../gateway/rpc-client';
import { freePort } from '../gateway/processes';
import { type ResultRow, row } from '../lib/report';
import { createSearchTenant, dropSearchTenant, type SearchTenant, startSearchApp } from '../search/fixture';
import { type RunningHaproxy, startHaproxy, untilServer } from './haproxy';
import { McpLoad } from './mcp-load';
import { Replica, type ReplicaApp } from './replica-set';
import {
  backendOf,
  type Goal,
  killOneGateway,
  outcomeOf,
  RestLoad,
  restartWorkersWithQueuedJobs,
  rollingRestart,
} from './scenarios';

/** HAProxy checks every 500 ms and takes a server out after 2 failures: about 1 s. */
const CHECK_INTERVAL_MS = 500;
/** Three times what HAProxy needs to notice, as the default 5 s is to a Kubernetes endpoint update. */
const DRAIN_MS = 3_000;
/** The per-token limit the gateways are restarted with for the rate-limit check. */
const LOW_TOKEN_LIMIT = 20;
const STEADY_SECONDS = 5;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export interface ReplicasBenchInput {
  readonly databaseUrl: string;
  readonly redisUrl: string;
  readonly root: string;
  readonly clients: number;
  readonly burst: number;
  readonly log: (line: string) => void;
}

export async function benchReplicas(
  input: ReplicasBenchInput,
): Promise<{ rows: ResultRow[]; notes: string[]; data: unknown }> {
  const { log } = input;
  const bench = await startSearchApp(input.databaseUrl, input.redisUrl);
  const tenants: SearchTenant[] = [];
  const replicas: Replica[] = [];
  let haproxy: RunningHaproxy | undefined;
  const dir = mkdtempSync(join(tmpdir(), 'cairn-replicas-'));
  try {
    const tenant = await createSearchTenant(bench, 'replicas');
    tenants.push(tenant);
    const masterKey = bench.config.secrets.masterKey?.toString('base64') ?? '';
    const common = {
      NODE_ENV: 'production',
      DATABASE_URL: input.databaseUrl,
      DATABASE_POOL_MAX: '5',
      REDIS_URL: input.redisUrl,
      QUEUE_PREFIX: bench.queuePrefix,
      CAIRN_MASTER_KEY: masterKey,
      LOG_LEVEL: 'warn',
      RATE_LIMIT_TOKEN_PER_MINUTE: '1000000',
      RATE_LIMIT_TENANT_PER_MINUTE: '10000000',
      SHUTDOWN_DRAIN_MS: String(DRAIN_MS),
      SHUTDOWN_TIMEOUT_MS: '10000',
      // Gateways answer verified tokens from memory, so the revocation check (d) proves the
      // LISTEN/NOTIFY that empties every replica's cache, not merely a lookup per request.
      TOKEN_CACHE_TTL_MS: '60000',
      // Every store queues its embedding job, so the workers have a queue to drain (scenario c).
      EMBEDDING_INLINE: 'false',
      WORKER_CONCURRENCY_EMBEDDINGS: '1',
    };
    const make = async (app: ReplicaApp, name: string, extra: Record<string, string> = {}) => {
      const replica = new Replica(app, name, await freePort(), input.root, { ...common, ...extra });
      replicas.push(replica);
      return replica;
    };
    const apis = [
      await make('api', 'api1', { CAIRN_ADMIN_TOKEN: bench.adminToken }),
      await make('api', 'api2', { CAIRN_ADMIN_TOKEN: bench.adminToken }),
    ];
    const gateways = [await make('mcp-gateway', 'gateway1'), await make('mcp-gateway', 'gateway2')];
    const workers = [await make('worker', 'worker1'), await make('worker', 'worker2')];
    log('replicas: starting 2 api, 2 gateway and 2 worker processes');
    for (const replica of replicas) await replica.start();

    const ports = { api: await freePort(), gateway: await freePort(), stats: await freePort() };
    haproxy = await startHaproxy(dir, {
      statsPort: ports.stats,
      checkIntervalMs: CHECK_INTERVAL_MS,
      backends: [
        { name: 'api', frontendPort: ports.api, servers: apis.map((r) => ({ name: r.name, port: r.port })) },
        {
          name: 'gateway',
          frontendPort: ports.gateway,
          servers: gateways.map((r) => ({ name: r.name, port: r.port })),
        },
      ],
    });
    const proxy = haproxy;
    for (const replica of [...apis, ...gateways])
      await untilServer(proxy, backendOf(replica) ?? '', replica.name, 'UP');
    const gatewayUrl = `http://127.0.0.1:${ports.gateway}`;
    const apiUrl = `http://127.0.0.1:${ports.api}`;
    log(`replicas: haproxy up (${haproxy.configFile}); api at ${apiUrl}, MCP at ${gatewayUrl}/mcp`);

    const load = new McpLoad({ url: gatewayUrl, token: tenant.token, project: tenant.projectSlug }, input.clients);
    const rest = new RestLoad(apiUrl, bench.adminToken);
    load.start();
    rest.start();
    await sleep(1_000);
    const steadyFrom = performance.now();
    await sleep(STEADY_SECONDS * 1_000);
    const steadyCalls = load.startedBetween(steadyFrom, performance.now());
    const steady = {
      calls: steadyCalls.length,
      failed: steadyCalls.filter((call) => call.error !== undefined).length,
      callsPerSecond: steadyCalls.length / STEADY_SECONDS,
    };
    log(`replicas: steady load ${steady.callsPerSecond.toFixed(0)} calls/s, ${steady.failed} failed`);

    log('replicas: (a) rolling restart of every replica');
    const rolling = await rollingRestart({ replicas, haproxy, load, rest, log });
    log(`replicas: (a) ${rolling.goal.detail}`);
    log('replicas: (b) kill -9 of gateway1');
    const killed = await killOneGateway({ gateway: gateways[0], haproxy, load });
    log(`replicas: (b) ${killed.goal.detail}`);
    await load.stop();
    await rest.stop();

    log(`replicas: (c) burst of ${input.burst} stores, then both workers restarted with jobs queued`);
    const queue = bench.app.get(JobQueue, { strict: false }).queue('embeddings');
    const schema = tenant.tenant.schema;
    const worker = await restartWorkersWithQueuedJobs({
      workers,
      haproxy,
      gatewayUrl,
      token: tenant.token,
      project: tenant.projectSlug,
      burst: input.burst,
      queue,
      unembedded: async (ids) => {
        const [counted] = await bench.dataSource.query<{ n: number }[]>(
          `SELECT count(*)::int AS n FROM "${schema}".memories WHERE id = ANY($1::uuid[]) AND embedding IS NULL`,
          [ids],
        );
        return counted?.n ?? ids.length;
      },
      log,
    });
    // The load's own stores were queued too; they must all be embedded by now as well.
    const loadUnembedded = (
      await bench.dataSource.query<{ n: number }[]>(
        `SELECT count(*)::int AS n FROM "${schema}".memories WHERE id = ANY($1::uuid[]) AND embedding IS NULL`,
        [load.storedIds],
      )
    )[0]?.n;
    log(`replicas: (c) ${worker.goal.detail}; ${loadUnembedded} of ${load.storedIds.length} load stores unembedded`);

    log('replicas: (d) revocation through api1, then calls through every gateway');
    const revocation = await revokeAcrossReplicas(bench, tenants, apis[0], gateways, gatewayUrl);
    log(`replicas: (d) ${revocation.goal.detail}`);
    log(`replicas: (d) gateways restarted with RATE_LIMIT_TOKEN_PER_MINUTE=${LOW_TOKEN_LIMIT}`);
    const rateLimit = await rateLimitAcrossGateways(bench, tenants, gateways, haproxy);
    log(`replicas: (d) ${rateLimit.goal.detail}`);

    const goals: Goal[] = [
      rolling.goal,
      killed.goal,
      {
        ...worker.goal,
        held: worker.goal.held && loadUnembedded === 0,
      },
      revocation.goal,
      rateLimit.goal,
    ];
    const failedGoals = goals.filter((goal) => !goal.held);
    if (failedGoals.length > 0) process.exitCode = 1;
    const percent = (part: number, whole: number) => (whole === 0 ? 0 : (part / whole) * 100);
    const steadyBaseline = { name: `steady load, no restart (${STEADY_SECONDS} s)` };
    const rows = [
      row('replicas', 'MCP calls/s during the rolling restart', 'calls/s', rolling.mcpCalls / rolling.seconds, {
        ...steadyBaseline,
        value: steady.callsPerSecond,
      }),
      row(
        'replicas',
        'failed MCP calls during the rolling restart',
        '%',
        percent(rolling.mcpFailed, rolling.mcpCalls),
        {
          ...steadyBaseline,
          value: percent(steady.failed, steady.calls),
        },
      ),
      row(
        'replicas',
        'failed calls of those in flight at a gateway kill -9',
        '%',
        percent(killed.failedInFlight, killed.inFlight),
      ),
      row('replicas', 'failed calls started after the kill -9', '%', percent(killed.failedAfter, killed.startedAfter), {
        ...steadyBaseline,
        value: percent(steady.failed, steady.calls),
      }),
      row('replicas', `queue drained after the worker restarts (${worker.stored} stores)`, 's', worker.drainSeconds),
      row('replicas', 'calls accepted on one token across both gateways', 'score', rateLimit.accepted, {
        name: `RATE_LIMIT_TOKEN_PER_MINUTE (${LOW_TOKEN_LIMIT})`,
        value: LOW_TOKEN_LIMIT,
      }),
    ];
    const notes = [
      `replicas: 2 api + 2 mcp-gateway + 2 worker processes behind HAProxy (/readyz checks every ${CHECK_INTERVAL_MS} ms, ` +
        `rise/fall 2; retry-on conn-failure only), SHUTDOWN_DRAIN_MS=${DRAIN_MS}, ${input.clients} MCP clients + 1 REST client; ` +
        'everything shares this machine with the load generator and haproxy.',
      ...goals.map((goal) => `replicas goal ${goal.held ? 'HELD' : 'FAILED'}: ${goal.name} — ${goal.detail}`),
    ];
    return {
      rows,
      notes,
      data: { steady, rolling, killed, worker: { ...worker, loadUnembedded }, revocation, rateLimit, goals },
    };
  } finally {
    for (const replica of replicas) await replica.kill().catch(() => undefined);
    await haproxy?.stop();
    for (const tenant of tenants) await dropSearchTenant(bench, tenant).catch(() => undefined);
    await bench.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Revoked through api1; the very next call through each gateway (and through HAProxy) must be refused. */
async function revokeAcrossReplicas(
  bench: Awaited<ReturnType<typeof startSearchApp>>,
  tenants: SearchTenant[],
  api: Replica,
  gateways: readonly Replica[],
  gatewayUrl: string,
) {
  const victim = await createSearchTenant(bench, 'revoke');
  tenants.push(victim);
  const clients = [...gateways.map((g) => g.url), gatewayUrl].map((url) => new RpcClient(url, victim.token, 1));
  const recall = (client: RpcClient) =>
    client.callTool('memory_recall', { query: 'revocation', limit: 1, project: victim.projectSlug });
  // Each gateway has verified (and cached) the token before it is revoked.
  const before = await Promise.all(clients.map((client) => outcomeOf(recall(client))));
  const response = await fetch(`${api.url}/v1/tenants/${victim.tenant.slug}/tokens/${victim.principal.tokenId}`, {
    method: 'DELETE',
    headers: { authorization: `Bearer ${bench.adminToken}` },
  });
  await response.arrayBuffer();
  const after = await Promise.all(clients.map((client) => outcomeOf(recall(client))));
  for (const client of clients) client.close();
  const goal: Goal = {
    name: 'revocation holds across replicas',
    held: response.ok && before.every((o) => o === 'ok') && after.every((o) => o === 'unauthorized'),
    detail:
      `revoke through ${api.name}: HTTP ${response.status}; before: ${before.join(', ')}; ` +
      `next call through gateway1, gateway2, haproxy: ${after.join(', ')}`,
  };
  return { goal, revokeStatus: response.status, before, after };
}

/** Both gateways restarted with a low per-token limit; one fresh token alternates between them. */
async function rateLimitAcrossGateways(
  bench: Awaited<ReturnType<typeof startSearchApp>>,
  tenants: SearchTenant[],
  gateways: readonly Replica[],
  haproxy: RunningHaproxy,
) {
  for (const gateway of gateways) {
    gateway.reconfigure({ RATE_LIMIT_TOKEN_PER_MINUTE: String(LOW_TOKEN_LIMIT) });
    await gateway.stop();
    await gateway.start();
    await untilServer(haproxy, 'gateway', gateway.name, 'UP');
  }
  const target = await createSearchTenant(bench, 'ratelimit');
  tenants.push(target);
  const clients = gateways.map((gateway) => new RpcClient(gateway.url, target.token, 1));
  const accepted = gateways.map(() => 0);
  const outcomes: string[] = [];
  for (let i = 0; i < LOW_TOKEN_LIMIT * 2; i++) {
    const which = i % clients.length;
    const outcome = await outcomeOf(
      clients[which].callTool('memory_recall', {
        query: 'limit',
        limit: 1,
        project: target.projectSlug,
      }),
    );
    outcomes.push(outcome);
    if (outcome === 'ok') accepted[which] = (accepted[which] ?? 0) + 1;
  }
  for (const client of clients) client.close();
  const total = accepted.reduce((sum, n) => sum + n, 0);
  const refused = outcomes.filter((o) => o === 'rate-limited').length;
  const goal: Goal = {
    name: 'rate limit counted across both gateways',
    held: total === LOW_TOKEN_LIMIT && refused === LOW_TOKEN_LIMIT,
    detail:
      `${total} of ${outcomes.length} calls accepted (${accepted.join(' + ')} per gateway), ${refused} rate-limited; ` +
      `limit ${LOW_TOKEN_LIMIT} per token per minute (per process it would accept ${LOW_TOKEN_LIMIT * gateways.length})`,
  };
  return { goal, accepted: total, perGateway: accepted, refused };
}
