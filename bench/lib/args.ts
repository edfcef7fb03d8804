/** Command-line parameters of `npm run bench`; everything has a default sized for a 2-core machine. */
export interface BenchOptions {
  /** Tenants created through the API (and as many baseline schemas). */
  readonly tenants: number;
  /** Tenants of the fleet benchmark (run with `--only tenants`): provisioned, seeded, migrated, recalled in. */
  readonly fleetTenants: number;
  /** Measured duration of each throughput phase. */
  readonly seconds: number;
  /** Unmeasured lead-in of each throughput phase. */
  readonly warmupSeconds: number;
  /** Requests kept in flight during throughput phases. */
  readonly concurrency: number;
  /** Benchmarks to run (all when absent). */
  readonly only?: readonly BenchName[];
  /** Corpus sizes of the search benchmark. */
  readonly sizes: readonly number[];
  /** Embedding providers the search benchmark runs with, one whole run each. */
  readonly searchProviders: readonly SearchProvider[];
  /** Memories embedded per run of the pipeline benchmark. */
  readonly pipelineItems: number;
  /** The pipeline benchmark's fake model server latency per request. */
  readonly pipelineLatencyMs: number;
  /** Requests the pipeline benchmark's model server works on at once (0: unlimited). */
  readonly pipelineSlots: number;
  /** Worker concurrencies (WORKER_CONCURRENCY_EMBEDDINGS) the pipeline benchmark runs at. */
  readonly pipelineConcurrency: readonly number[];
  /** Concurrent clients the gateway benchmark runs at. */
  readonly gatewayConcurrency: readonly number[];
  /** Memories in the gateway benchmark's tenant. */
  readonly gatewayMemories: number;
  /** Write a V8 CPU profile of the gateway process (bench/results/profiles/). */
  readonly gatewayProfile: boolean;
  /** Tools the gateway benchmark calls (each over HTTP and in-process). */
  readonly gatewayTools: readonly GatewayTool[];
  /** Root of another built checkout whose gateway is measured beside this one (before/after). */
  readonly gatewayCompare?: string;
  /** Memories in the hooks benchmark's project. */
  readonly hooksMemories: number;
  /** Measured runs of the UserPromptSubmit hook. */
  readonly hooksRuns: number;
  /** Symbol names the harness benchmark looks up (each with code_symbol, code_search and git grep). */
  readonly harnessNames: number;
  /** Labelled questions from the git history the harness benchmark calibrates context_check on, at most. */
  readonly harnessQuestions: number;
  /** Memories the freshness benchmark stores in its burst (per embedder, inline on and off). */
  readonly freshnessStores: number;
  /** Embedders the freshness benchmark runs with, one pair of runs (inline on, off) each. */
  readonly freshnessProviders: readonly SearchProvider[];
  /** Memories tenant A imports in the fairness benchmark. */
  readonly fairnessItems: number;
  /** Memories tenant B writes during that import. */
  readonly fairnessWrites: number;
  /** B's writes per second. */
  readonly fairnessWriteRate: number;
  /** The fairness benchmark's worker embedding concurrency. */
  readonly fairnessConcurrency: number;
  /** Concurrent MCP clients through HAProxy during the replicas benchmark's scenarios. */
  readonly replicasClients: number;
  /** Memories stored in the burst before the replicas benchmark restarts the workers. */
  readonly replicasBurst: number;
  /** Minutes the soak benchmark keeps one gateway at half its capacity. */
  readonly soakMinutes: number;
  /** Every app of the run reaches PostgreSQL through a transaction-mode pgbouncer (DATABASE_POOLER=transaction). */
  readonly pgbouncer: boolean;
  /** Memories in the scale benchmark's tenant (the size: 1,000,000). */
  readonly scaleMemories: number;
  /** Memories of the scale benchmark's local-model run (0: skipped). */
  readonly scaleModelSubset: number;
  /** The scale benchmark's concurrency beside c=1. */
  readonly scaleConcurrency: number;
}

export const GATEWAY_TOOLS = ['recall', 'store'] as const;
export type GatewayTool = (typeof GATEWAY_TOOLS)[number];

export const BENCH_NAMES = [
  'tenants',
  'tokens',
  'search',
  'scale',
  'duplicates',
  'scopes',
  'pipeline',
  'gateway',
  'broadcast',
  'hooks',
  'harness',
  'freshness',
  'fairness',
  'replicas',
  'soak',
] as const;
export const SEARCH_PROVIDERS = ['hash', 'local'] as const;
export type SearchProvider = (typeof SEARCH_PROVIDERS)[number];
export type BenchName = (typeof BENCH_NAMES)[number];

export const USAGE = `usage: npm run bench -- [--tenants N] [--fleet-tenants N] [--seconds S] [--warmup S] [--concurrency C]
                        [--only LIST] [--sizes LIST] [--search-providers LIST] [--pipeline-items N]
                        [--pipeline-latency MS] [--pipeline-slots N] [--pipeline-concurrency LIST]
                        [--gateway-concurrency LIST] [--gateway-memories N] [--gateway-profile]
                        [--gateway-tools LIST] [--gateway-compare DIR] [--hooks-memories N] [--hooks-runs N]
                        [--harness-names N] [--harness-questions N] [--freshness-stores N]
                        [--freshness-providers LIST] [--fairness-items N] [--fairness-writes N]
                        [--fairness-write-rate N] [--fairness-concurrency N] [--replicas-clients N]
                        [--replicas-burst N] [--soak-minutes M] [--pgbouncer] [--scale-memories N]
                        [--scale-model-subset N] [--scale-concurrency C]
  --tenants N       tenants to provision, and baseline schemas to create (default 100)
  --fleet-tenants N tenants of the fleet part of the tenants benchmark: each provisioned, seeded with
                    20 memories, recalled in and migrated (default 1000; the scale goal is 10000)
  --seconds S       measured seconds per throughput phase (default 3)
  --warmup S        unmeasured warm-up seconds per throughput phase (default 0.5)
  --concurrency C   requests in flight during throughput phases (default 16)
  --only LIST       comma-separated benchmarks to run: tenants, tokens, search, scale (one tenant of
                    --scale-memories memories: bulk load, HNSW build, recall, store, term-statistics
                    fold, VACUUM/ANALYZE; only when named; see bench/scale/README.md), duplicates,
                    pipeline, gateway, broadcast (16 agents posting to and reading one project's
                    coordination channel; --seconds and --warmup apply, the concurrency is 16),
                    scopes (recall with scope filtering in a 50-project, 20-author tenant beside
                    the same recall without scopes, at the largest --sizes size, at concurrency
                    1 and --concurrency), hooks (the Claude Code UserPromptSubmit hook's wall time,
                    process start included, beside a bare node start and the recall in-process)
                    harness (cairn index on this repository, symbol lookups over MCP beside git grep,
                    the context to learn the layout, context_check's calibration on the git history),
                    freshness (a burst of stores through the write path, each timed until a
                    semantic-only recall of its own text returns it, inline embedding on and off;
                    --concurrency applies), fairness (tenant B's interactive writes embedded during
                    tenant A's import, with the embedding queue's fairness off and on), replicas (two api, two gateway and two worker
                    processes behind Debian's HAProxy: rolling restart, kill -9 of a gateway,
                    worker restart with queued jobs, revocation and rate limits across replicas;
                    exits 1 when a goal does not hold; see bench/replicas/README.md), soak (one
                    gateway and one worker at half the gateway's capacity for --soak-minutes:
                    errors, p95, memory, event-loop lag, queue depth, connections, SVG charts)
                    (default: all but scale)
  --sizes LIST      search and duplicates corpus sizes, and the largest one the scopes
                    benchmark's (default 10000,100000); --sizes 10000 skips the 100k size,
                    whose seeding and measurement take several minutes
  --search-providers LIST  embedders the search benchmark runs with: hash (built in), local (the
                    bundled model; its vectors are kept in .cairn/embedding-cache, so only the
                    first run pays for embedding the corpus) (default hash,local)
  --pipeline-items N        memories per one-job-per-write pipeline run (default 1000; the issue's
                            20000 takes about 13 minutes, see bench/pipeline/README.md)
  --pipeline-latency MS     fake model server latency per request (default 20)
  --pipeline-slots N        requests the fake model server works on at once, the rest queue, like
                            a GPU's parallel slots (default 0: unlimited); the worker then keeps
                            as many in flight (EMBEDDING_MAX_IN_FLIGHT)
  --pipeline-concurrency LIST  worker embedding concurrencies (default 1,2,4)
  --gateway-concurrency LIST   concurrent MCP clients of the gateway benchmark (default 1,16,64)
  --gateway-memories N         memories in the gateway benchmark's tenant (default 10000)
  --gateway-profile            also write a V8 CPU profile of the gateway process
                               (bench/results/profiles/; see bench/gateway/README.md)
  --gateway-tools LIST         tools the gateway benchmark calls: recall, store (default both; one
                               alone gives a shorter run and a profile of that tool only)
  --gateway-compare DIR        also run the gateway built in another checkout (DIR/dist, e.g. a
                               worktree of the commit before a change, built, with node_modules)
                               in the same interleaved slices: before/after on the same noise
  --hooks-memories N           memories in the hooks benchmark's project (default 10000)
  --hooks-runs N               measured hook runs (default 60; each beside a bare node start and
                               the same recall in-process)
  --harness-names N            symbol names the harness benchmark looks up (default 200; each one
                               code_symbol, one code_search and one git grep)
  --harness-questions N        questions from the git history context_check is calibrated on, at
                               most (default 400; half fit, half held out)
  --freshness-stores N         memories the freshness benchmark stores per run (default 1000)
  --freshness-providers LIST   embedders the freshness benchmark runs with: hash, local (default hash);
                               EMBEDDING_INLINE_MAX_CHARS, _BUDGET_MS and _MAX_IN_FLIGHT in the
                               environment reach its apps
  --fairness-items N           memories tenant A imports in the fairness benchmark (default 5000)
  --fairness-writes N          memories tenant B writes one at a time during it (default 200)
  --fairness-write-rate N      B's writes per second (default 20)
  --fairness-concurrency N     the fairness benchmark's WORKER_CONCURRENCY_EMBEDDINGS (default 4)
  --replicas-clients N         concurrent MCP clients through HAProxy in the replicas benchmark (default 8)
  --replicas-burst N           memories stored before the replicas benchmark restarts the workers
                               with jobs queued (default 2000)
  --soak-minutes M             how long the soak benchmark runs one gateway at half its measured
                               capacity (default 30; charts under bench/results/soak/)
  --pgbouncer                  run every app through a PgBouncer in transaction mode (Debian's
                               /usr/sbin/pgbouncer, started on a free port) with DATABASE_POOLER=
                               transaction and DATABASE_DIRECT_URL, as the README's "Behind PgBouncer"
  --scale-memories N           memories in the scale benchmark's tenant (default 1000000; about
                               20000 for a smoke run, see bench/scale/README.md for how long each takes)
  --scale-model-subset N       memories the scale benchmark also runs with the local model (the
                               search benchmark at that size; default 100000; 0 skips it; skipped
                               with a note when the model files are missing: npm run models)
  --scale-concurrency C        the scale benchmark's concurrency beside c=1 (default 16)`;

export class UsageError extends Error {}

const DEFAULTS: BenchOptions = {
  tenants: 100,
  fleetTenants: 1_000,
  seconds: 3,
  warmupSeconds: 0.5,
  concurrency: 16,
  sizes: [10_000, 100_000],
  searchProviders: SEARCH_PROVIDERS,
  pipelineItems: 1_000,
  pipelineLatencyMs: 20,
  pipelineSlots: 0,
  pipelineConcurrency: [1, 2, 4],
  gatewayConcurrency: [1, 16, 64],
  gatewayMemories: 10_000,
  gatewayProfile: false,
  gatewayTools: GATEWAY_TOOLS,
  hooksMemories: 10_000,
  hooksRuns: 60,
  harnessNames: 200,
  harnessQuestions: 400,
  freshnessStores: 1_000,
  freshnessProviders: ['hash'],
  fairnessItems: 5_000,
  fairnessWrites: 200,
  fairnessWriteRate: 20,
  fairnessConcurrency: 4,
  replicasClients: 8,
  replicasBurst: 2_000,
  soakMinutes: 30,
  pgbouncer: false,
  scaleMemories: 1_000_000,
  scaleModelSubset: 100_000,
  scaleConcurrency: 16,
};

type NumericOption =
  | 'tenants'
  | 'fleetTenants'
  | 'seconds'
  | 'warmupSeconds'
  | 'concurrency'
  | 'pipelineItems'
  | 'pipelineLatencyMs'
  | 'pipelineSlots'
  | 'gatewayMemories'
  | 'hooksMemories'
  | 'hooksRuns'
  | 'harnessNames'
  | 'harnessQuestions'
  | 'freshnessStores'
  | 'fairnessItems'
  | 'fairnessWrites'
  | 'fairnessWriteRate'
  | 'fairnessConcurrency'
  | 'replicasClients'
  | 'replicasBurst'
  | 'soakMinutes'
  | 'scaleMemories'
  | 'scaleModelSubset'
  | 'scaleConcurrency';

const FLAGS: Record<string, { key: NumericOption; integer: boolean; min: number; max: number }> = {
  '--tenants': { key: 'tenants', integer: true, min: 1, max: 100_000 },
  '--fleet-tenants': { key: 'fleetTenants', integer: true, min: 20, max: 100_000 },
  '--seconds': { key: 'seconds', integer: false, min: 0.1, max: 3_600 },
  '--warmup': { key: 'warmupSeconds', integer: false, min: 0, max: 600 },
  '--concurrency': { key: 'concurrency', integer: true, min: 1, max: 1_024 },
  '--pipeline-items': { key: 'pipelineItems', integer: true, min: 100, max: 1_000_000 },
  '--pipeline-latency': { key: 'pipelineLatencyMs', integer: true, min: 0, max: 10_000 },
  '--pipeline-slots': { key: 'pipelineSlots', integer: true, min: 0, max: 1_024 },
  '--gateway-memories': { key: 'gatewayMemories', integer: true, min: 100, max: 1_000_000 },
  '--hooks-memories': { key: 'hooksMemories', integer: true, min: 100, max: 1_000_000 },
  '--hooks-runs': { key: 'hooksRuns', integer: true, min: 5, max: 10_000 },
  '--harness-names': { key: 'harnessNames', integer: true, min: 10, max: 10_000 },
  '--harness-questions': { key: 'harnessQuestions', integer: true, min: 20, max: 2_000 },
  '--freshness-stores': { key: 'freshnessStores', integer: true, min: 10, max: 100_000 },
  '--fairness-items': { key: 'fairnessItems', integer: true, min: 256, max: 1_000_000 },
  '--fairness-writes': { key: 'fairnessWrites', integer: true, min: 10, max: 100_000 },
  '--fairness-write-rate': { key: 'fairnessWriteRate', integer: true, min: 1, max: 10_000 },
  '--fairness-concurrency': { key: 'fairnessConcurrency', integer: true, min: 1, max: 64 },
  '--replicas-clients': { key: 'replicasClients', integer: true, min: 1, max: 256 },
  '--replicas-burst': { key: 'replicasBurst', integer: true, min: 10, max: 100_000 },
  '--soak-minutes': { key: 'soakMinutes', integer: false, min: 0.5, max: 24 * 60 },
  '--scale-memories': { key: 'scaleMemories', integer: true, min: 1_000, max: 10_000_000 },
  '--scale-model-subset': { key: 'scaleModelSubset', integer: true, min: 0, max: 1_000_000 },
  '--scale-concurrency': { key: 'scaleConcurrency', integer: true, min: 2, max: 256 },
};

const LIST_FLAGS = new Set([
  '--only',
  '--sizes',
  '--search-providers',
  '--pipeline-concurrency',
  '--gateway-concurrency',
  '--gateway-tools',
  '--freshness-providers',
]);

/** Accepts `--flag value` and `--flag=value`; anything else is a usage error. */
export function parseArgs(argv: readonly string[]): BenchOptions | 'help' {
  const {
    sizes: defaultSizes,
    searchProviders: defaultSearchProviders,
    pipelineConcurrency: defaultPipelineConcurrency,
    gatewayConcurrency: defaultGatewayConcurrency,
    gatewayProfile: defaultGatewayProfile,
    gatewayTools: defaultGatewayTools,
    freshnessProviders: defaultFreshnessProviders,
    pgbouncer: defaultPgbouncer,
    ...numeric
  } = DEFAULTS;
  const options: Record<NumericOption, number> = { ...numeric };
  let only: BenchName[] | undefined;
  let sizes = defaultSizes;
  let searchProviders = defaultSearchProviders;
  let pipelineConcurrency = defaultPipelineConcurrency;
  let gatewayConcurrency = defaultGatewayConcurrency;
  let gatewayProfile = defaultGatewayProfile;
  let gatewayTools = defaultGatewayTools;
  let gatewayCompare: string | undefined;
  let freshnessProviders = defaultFreshnessProviders;
  let pgbouncer = defaultPgbouncer;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? '';
    if (arg === '--help' || arg === '-h') return 'help';
    const [flag = '', inline] = arg.split('=', 2);
    if (flag === '--gateway-profile' && inline === undefined) {
      gatewayProfile = true;
      continue;
    }
    if (flag === '--pgbouncer' && inline === undefined) {
      pgbouncer = true;
      continue;
    }
    if (flag === '--gateway-compare') {
      gatewayCompare = inline ?? argv[++i];
      if (!gatewayCompare) throw new UsageError(`${flag} needs a directory`);
      continue;
    }
    if (LIST_FLAGS.has(flag)) {
      const raw = inline ?? argv[++i];
      if (raw === undefined) throw new UsageError(`${flag} needs a value`);
      const list = raw.split(',').map((part) => part.trim());
      if (flag === '--only') only = list.map(benchName);
      else if (flag === '--sizes') sizes = list.map(corpusSize);
      else if (flag === '--search-providers') searchProviders = list.map(searchProvider);
      else if (flag === '--gateway-concurrency') gatewayConcurrency = list.map(clientConcurrency);
      else if (flag === '--gateway-tools') gatewayTools = list.map(gatewayTool);
      else if (flag === '--freshness-providers') freshnessProviders = list.map(searchProvider);
      else pipelineConcurrency = list.map(workerConcurrency);
      continue;
    }
    const spec = FLAGS[flag];
    if (!spec) throw new UsageError(`unknown argument "${arg}"`);
    const raw = inline ?? argv[++i];
    if (raw === undefined) throw new UsageError(`${flag} needs a value`);
    const value = Number(raw);
    if (!Number.isFinite(value) || (spec.integer && !Number.isInteger(value)) || value < spec.min || value > spec.max) {
      throw new UsageError(
        `${flag} must be ${spec.integer ? 'an integer' : 'a number'} between ${spec.min} and ${spec.max}`,
      );
    }
    options[spec.key] = value;
  }
  if (options.scaleModelSubset > 0 && options.scaleModelSubset < 100) {
    throw new UsageError('--scale-model-subset must be 0 (skip the local model) or at least 100');
  }
  return {
    ...options,
    sizes: [...new Set(sizes)],
    searchProviders: [...new Set(searchProviders)],
    pipelineConcurrency: [...new Set(pipelineConcurrency)],
    gatewayConcurrency: [...new Set(gatewayConcurrency)],
    gatewayProfile,
    gatewayTools: [...new Set(gatewayTools)],
    freshnessProviders: [...new Set(freshnessProviders)],
    pgbouncer,
    ...(gatewayCompare ? { gatewayCompare } : {}),
    ...(only ? { only } : {}),
  };
}

function benchName(name: string): BenchName {
  if (!(BENCH_NAMES as readonly string[]).includes(name)) {
    throw new UsageError(`--only takes ${BENCH_NAMES.join(', ')}; got "${name}"`);
  }
  return name as BenchName;
}

function searchProvider(name: string): SearchProvider {
  if (!(SEARCH_PROVIDERS as readonly string[]).includes(name)) {
    throw new UsageError(`--search-providers takes ${SEARCH_PROVIDERS.join(', ')}; got "${name}"`);
  }
  return name as SearchProvider;
}

function gatewayTool(name: string): GatewayTool {
  if (!(GATEWAY_TOOLS as readonly string[]).includes(name)) {
    throw new UsageError(`--gateway-tools takes ${GATEWAY_TOOLS.join(', ')}; got "${name}"`);
  }
  return name as GatewayTool;
}

function corpusSize(text: string): number {
  const size = Number(text.replace(/_/g, ''));
  if (!Number.isInteger(size) || size < 100 || size > 1_000_000) {
    throw new UsageError(`--sizes takes integers between 100 and 1000000; got "${text}"`);
  }
  return size;
}

function workerConcurrency(text: string): number {
  const value = Number(text);
  if (!Number.isInteger(value) || value < 1 || value > 64) {
    throw new UsageError(`--pipeline-concurrency takes integers between 1 and 64; got "${text}"`);
  }
  return value;
}

function clientConcurrency(text: string): number {
  const value = Number(text);
  if (!Number.isInteger(value) || value < 1 || value > 512) {
    throw new UsageError(`--gateway-concurrency takes integers between 1 and 512; got "${text}"`);
  }
  return value;
}
