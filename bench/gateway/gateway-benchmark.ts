/**
 * The MCP gateway under load (issue 5, "Figures"): `memory_recall` and `memory_store` as raw
 * JSON-RPC `tools/call` POSTs over keep-alive HTTP to the built gateway running as its own
 * process, against a tenant with 10k hash-embedded memories, at 1, 16 and 64 concurrent
 * clients; beside, in the same interleaved slices, (a) the same calls on the service layer
 * in-process (`MemoryRecall.recall` / `MemoryWriter.store` in the tenant context) and (b) a
 * bare stateless SDK echo server on the same HTTP stack. See bench/gateway/README.md.
 */
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { type StoreMemoryInput, viewerOf } from '@cairn/memory';
import { REDIS } from '@cairn/redis';
import { type Redis } from 'ioredis';
import { type GatewayTool } from '../lib/args';
import { compareUnderLoad } from '../lib/load';
import { waitForIdlePool } from '../lib/pool';
import { type ResultRow } from '../lib/report';
import { corpusMemory, corpusQueries } from '../search/corpus';
import { createSearchTenant, dropSearchTenant, type SearchTenant, startSearchApp } from '../search/fixture';
import { seedCairn } from '../search/seed';
import { CpuMeter, postmasterOf } from './cpu-meter';
import { type CaseName, goalsSummary, type Level, levelRows, levelSummary } from './gateway-report';
import { type ChildServer, startEchoProcess, startGatewayProcess } from './processes';
import { RpcClient, type ToolResult } from './rpc-client';
import { databaseSettings } from '../lib/environment';

const LIMIT = 10;
const QUERIES = 500;
/** Queries whose HTTP answer is compared with the service's before the load starts. */
const VERIFIED_QUERIES = 50;
/** Stored memories come from far beyond the seeded corpus, so none repeats a seeded one. */
const STORE_OFFSET = 3_000_000;
/** High enough that no call of the run is refused (the defaults are 600 and 6,000 per minute). */
const RATE_LIMIT = '1000000';
/** The production default; BENCH_GATEWAY_LOG_LEVEL=warn measures what the two request log lines cost. */
const GATEWAY_LOG_LEVEL = process.env.BENCH_GATEWAY_LOG_LEVEL ?? 'info';
/** Node options for the gateway under test only (not the compared one), e.g. `--heap-prof --heap-prof-dir DIR`. */
const GATEWAY_NODE_ARGS = (process.env.BENCH_GATEWAY_NODE_ARGS ?? '').split(' ').filter(Boolean);
/**
 * Where the gateway under test is built (default: this checkout). With --gateway-compare,
 * swapping the two between runs cancels any advantage of running first or second.
 */
const GATEWAY_ROOT = process.env.BENCH_GATEWAY_ROOT;

export interface GatewayBenchInput {
  readonly databaseUrl: string;
  readonly redisUrl: string;
  readonly root: string;
  readonly memories: number;
  readonly concurrencies: readonly number[];
  readonly seconds: number;
  readonly warmupSeconds: number;
  /** Write a V8 CPU profile of the gateway process under bench/results/profiles/. */
  readonly cpuProfile: boolean;
  /** Tools called (each over HTTP and in-process); the echo ceiling always runs. */
  readonly tools: readonly GatewayTool[];
  /** Root of another built checkout whose gateway runs beside this one, in the same slices. */
  readonly compareRoot?: string;
  readonly log: (line: string) => void;
}

const TOOL_CASES: Record<GatewayTool, readonly CaseName[]> = {
  recall: ['recallHttp', 'recallService'],
  store: ['storeHttp', 'storeService'],
};
const COMPARED_CASES: Record<GatewayTool, CaseName> = { recall: 'recallCompared', store: 'storeCompared' };

export async function benchGateway(
  input: GatewayBenchInput,
): Promise<{ rows: ResultRow[]; notes: string[]; data: unknown }> {
  const { log } = input;
  const began = performance.now();
  const bench = await startSearchApp(input.databaseUrl, input.redisUrl);
  const children: ChildServer[] = [];
  let target: SearchTenant | undefined;
  try {
    target = await createSearchTenant(bench, 'gateway');
    const tenant = target;
    const runStart = new Date();
    const corpus = Array.from({ length: input.memories }, (_, i) => corpusMemory(i));
    const ids = corpus.map(() => randomUUID());
    log(`gateway: seeding ${input.memories} memories (bulk INSERT, hash embedder vectors)`);
    const seed = await seedCairn(bench, tenant, corpus, ids, runStart, log);
    const queries = corpusQueries(QUERIES, input.memories).map((query) => query.text);
    const idIndex = new Map(ids.map((id, index) => [id, index]));

    const profileDir = input.cpuProfile
      ? join(input.root, 'bench', 'results', 'profiles', `gateway-${runStart.toISOString().replace(/:/g, '-')}`)
      : undefined;
    const masterKey = bench.config.secrets.masterKey?.toString('base64');
    const gatewayEnv = {
      NODE_ENV: 'production',
      ...databaseSettings(input.databaseUrl),
      REDIS_URL: input.redisUrl,
      QUEUE_PREFIX: bench.queuePrefix,
      LOG_LEVEL: GATEWAY_LOG_LEVEL,
      RATE_LIMIT_TOKEN_PER_MINUTE: RATE_LIMIT,
      RATE_LIMIT_TENANT_PER_MINUTE: RATE_LIMIT,
      ...(masterKey ? { CAIRN_MASTER_KEY: masterKey } : {}),
    };
    const gateway = await startGatewayProcess({
      root: GATEWAY_ROOT ?? input.root,
      cpuProfileDir: profileDir,
      env: gatewayEnv,
      nodeArgs: GATEWAY_NODE_ARGS,
    });
    children.push(gateway);
    // BENCH_COMPARED_GATEWAY_ENV (KEY=VALUE,...) configures the compared gateway alone: with
    // --gateway-compare . it measures one setting against another, same build, same slices.
    const comparedEnv = Object.fromEntries(
      (process.env.BENCH_COMPARED_GATEWAY_ENV ?? '')
        .split(',')
        .filter(Boolean)
        .map((pair) => pair.split('=', 2) as [string, string]),
    );
    const compared = input.compareRoot
      ? await startGatewayProcess({ root: input.compareRoot, env: { ...gatewayEnv, ...comparedEnv } })
      : undefined;
    if (compared) {
      children.push(compared);
      log(`gateway: compared gateway (${input.compareRoot}) pid ${compared.pid} at ${compared.url}`);
    }
    const echo = await startEchoProcess(input.root);
    children.push(echo);
    log(`gateway: gateway pid ${gateway.pid} at ${gateway.url}, echo server pid ${echo.pid} at ${echo.url}`);
    const [backend] = await bench.dataSource.query<{ pid: number }[]>('SELECT pg_backend_pid() AS pid');
    const redisInfo = await bench.app.get<symbol, Redis>(REDIS, { strict: false }).info('server');
    const meterTargets = {
      gatewayPids: compared ? [gateway.pid, compared.pid] : [gateway.pid],
      postmasterPid: postmasterOf(backend?.pid ?? 0),
      redisPid: Number(/process_id:(\d+)/.exec(redisInfo)?.[1] ?? 0),
    };

    const inTenant = <T>(work: () => Promise<T>): Promise<T> => bench.entry.run(tenant.tenant, work);
    const serviceRecall = async (query: string): Promise<string[]> => {
      const result = await inTenant(() =>
        // As the gateway's token reads (the same privacy filter), so only the protocol differs.
        bench.recall.recall(tenant.projectSlug, viewerOf(tenant.principal), {
          query,
          mode: 'hybrid',
          limit: LIMIT,
          explain: false,
          filter: {},
        }),
      );
      return result.results.map((hit) => hit.memory.id);
    };
    const verifier = new RpcClient(gateway.url, tenant.token, 1);
    const httpRecall = async (client: RpcClient, query: string): Promise<string[]> =>
      recalledIds(await client.callTool('memory_recall', { query, limit: LIMIT, project: tenant.projectSlug }));
    const agreement = await verify(queries.slice(0, VERIFIED_QUERIES), serviceRecall, (q) => httpRecall(verifier, q));
    verifier.close();
    const hits = await hitRate(queries, input.memories, idIndex, serviceRecall);
    log(
      `gateway: HTTP and service answers agree on ${agreement.identical}/${agreement.total} queries ` +
        `(mean overlap ${(agreement.overlap * 100).toFixed(1)}%); answer found in the top ${LIMIT} for ` +
        `${(hits * 100).toFixed(1)}% of ${queries.length} queries`,
    );

    const httpStore = async (client: RpcClient): Promise<void> => {
      const result = await client.callTool('memory_store', { ...storeFields(), project: tenant.projectSlug });
      const memory = result.structuredContent?.memory as { id?: unknown } | undefined;
      if (typeof memory?.id !== 'string' || result.structuredContent?.embedding !== 'queued') {
        throw new Error(`memory_store: unexpected answer ${JSON.stringify(result).slice(0, 300)}`);
      }
    };
    let nextQuery = 0;
    let nextStore = 0;
    const storeFields = () => {
      const memory = corpusMemory(STORE_OFFSET + nextStore++);
      const { content, category, tags, keywords, importance, confidence } = memory;
      return { content, category, tags, keywords, importance, confidence };
    };
    const levels: Level[] = [];
    for (const concurrency of input.concurrencies) {
      const echoClient = new RpcClient(echo.url, undefined, concurrency);
      const client = new RpcClient(gateway.url, tenant.token, concurrency);
      const comparedClient = compared ? new RpcClient(compared.url, tenant.token, concurrency) : undefined;
      try {
        const all: Record<CaseName, () => Promise<void>> = {
          echo: async () => {
            const text = `ping ${nextQuery++}`;
            const result = await echoClient.callTool('echo', { text });
            if (result.content?.[0]?.text !== text) throw new Error('echo: wrong answer');
          },
          recallHttp: async () => {
            const found = await httpRecall(client, queries[nextQuery++ % queries.length] ?? '');
            if (found.length === 0) throw new Error('memory_recall: no results');
          },
          recallCompared: async () => {
            const found = await httpRecall(comparedClient!, queries[nextQuery++ % queries.length] ?? '');
            if (found.length === 0) throw new Error('memory_recall (compared gateway): no results');
          },
          recallService: async () => {
            const found = await serviceRecall(queries[nextQuery++ % queries.length] ?? '');
            if (found.length === 0) throw new Error('MemoryRecall.recall: no results');
          },
          storeHttp: () => httpStore(client),
          storeCompared: () => httpStore(comparedClient!),
          storeService: async () => {
            const fields: StoreMemoryInput = {
              ...storeFields(),
              pinned: false,
              source: null,
              scope: 'project',
              supersedes: [],
            };
            const result = await inTenant(() => bench.writer.store(tenant.projectSlug, tenant.principal, fields));
            if (result.embedding !== 'queued') throw new Error(`MemoryWriter.store: embedding ${result.embedding}`);
          },
        };
        const names: CaseName[] = [
          'echo',
          ...input.tools.flatMap((tool) => [...TOOL_CASES[tool], ...(compared ? [COMPARED_CASES[tool]] : [])]),
        ];
        const cases = Object.fromEntries(names.map((name) => [name, all[name]])) as Record<string, () => Promise<void>>;
        log(`gateway c=${concurrency}: ${names.length} cases, ${input.seconds} s each in interleaved slices`);
        const meter = new CpuMeter(meterTargets);
        const results = await compareUnderLoad(
          cases,
          { concurrency, seconds: input.seconds, warmupSeconds: input.warmupSeconds },
          () => waitForIdlePool(bench.dataSource),
          (name) => meter.start(name),
        );
        const level: Level = { concurrency, results, cpu: meter.perCall() };
        levels.push(level);
        log(`gateway c=${concurrency}: ${levelSummary(level)}`);
      } finally {
        echoClient.close();
        client.close();
        comparedClient?.close();
      }
    }
    for (const child of children.splice(0).reverse()) await child.stop();
    const seconds = (performance.now() - began) / 1000;
    return {
      rows: levels.flatMap(levelRows),
      notes: notes(input, levels, agreement, hits, nextStore, seconds, profileDir),
      data: {
        memories: input.memories,
        seed,
        limit: LIMIT,
        queries: QUERIES,
        agreement,
        hitRate: hits,
        stored: nextStore,
        gatewayLogLevel: GATEWAY_LOG_LEVEL,
        gatewayPoolMax: bench.config.database.poolMax,
        tools: input.tools,
        cpuProfileDir: profileDir ?? null,
        seconds,
        levels,
      },
    };
  } finally {
    for (const child of children.reverse()) await child.stop();
    if (target) await dropSearchTenant(bench, target).catch(() => undefined);
    await bench.close();
  }
}

function recalledIds(result: ToolResult): string[] {
  const results = result.structuredContent?.results;
  if (!Array.isArray(results)) throw new Error('memory_recall: no structured results');
  return results.map((hit: { memory?: { id?: unknown } }) => {
    if (typeof hit.memory?.id !== 'string') throw new Error('memory_recall: a result without an id');
    return hit.memory.id;
  });
}

interface Agreement {
  readonly total: number;
  /** Queries whose HTTP answer lists the same ids in the same order as the service's. */
  readonly identical: number;
  /** Mean share of the service's ids the HTTP answer also holds. */
  readonly overlap: number;
}

/**
 * The gateway must answer what the service answers. Recording access nudges confidence a
 * little, which can swap near-ties between two calls of the same query, so order is
 * reported while the check itself is on the ids returned: most of them must agree.
 */
async function verify(
  queries: readonly string[],
  service: (query: string) => Promise<string[]>,
  http: (query: string) => Promise<string[]>,
): Promise<Agreement> {
  let identical = 0;
  let overlapSum = 0;
  for (const query of queries) {
    const expected = await service(query);
    const got = await http(query);
    if (expected.length === 0) throw new Error(`the service found nothing for "${query}"`);
    if (got.join() === expected.join()) identical++;
    overlapSum += expected.filter((id) => got.includes(id)).length / expected.length;
  }
  const overlap = overlapSum / queries.length;
  if (overlap < 0.9) throw new Error(`memory_recall over HTTP disagrees with the service (overlap ${overlap})`);
  return { total: queries.length, identical, overlap };
}

/** Share of queries whose known answer (the memory it was written about) is in the top LIMIT. */
async function hitRate(
  queries: readonly string[],
  population: number,
  idIndex: ReadonlyMap<string, number>,
  service: (query: string) => Promise<string[]>,
): Promise<number> {
  const targets = corpusQueries(queries.length, population).map((query) => query.target);
  let found = 0;
  for (const [i, query] of queries.slice(0, 100).entries()) {
    const indices = (await service(query)).map((id) => idIndex.get(id));
    if (indices.includes(targets[i])) found++;
  }
  return found / Math.min(100, queries.length);
}

function notes(
  input: GatewayBenchInput,
  levels: readonly Level[],
  agreement: Agreement,
  hits: number,
  stored: number,
  seconds: number,
  profileDir: string | undefined,
): string[] {
  const ceiling = levels
    .map((level) => {
      const { echo, recallHttp } = level.results;
      if (!echo || !recallHttp) return `c=${level.concurrency} -`;
      return `c=${level.concurrency} ${((recallHttp.perSecond / echo.perSecond) * 100).toFixed(0)}%`;
    })
    .join(', ');
  return [
    `gateway: the built gateway (node dist/apps/mcp-gateway/src/main.js, LOG_LEVEL=${GATEWAY_LOG_LEVEL}, default pool) and the ` +
      `echo server run as child processes; calls are raw JSON-RPC tools/call POSTs over keep-alive node:http ` +
      `sockets (one per client, no initialize: stateless), ${LIMIT} results per recall, tenant of ` +
      `${input.memories} memories with hash-embedder vectors; rate limits raised to ${RATE_LIMIT}/min`,
    `gateway: HTTP and service recall answers identical for ${agreement.identical}/${agreement.total} ` +
      `queries (id overlap ${(agreement.overlap * 100).toFixed(1)}%), known answer in the top ${LIMIT} for ` +
      `${(hits * 100).toFixed(0)}%; every measured call checked; memory_recall reaches ${ceiling} of the echo ` +
      `ceiling; ${stored} memories stored; ${seconds.toFixed(0)} s in all` +
      (profileDir ? `; gateway CPU profile in ${profileDir}` : ''),
    goalsSummary(levels),
  ];
}
