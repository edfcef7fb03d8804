/**
 * Word lists the synthetic developer memories are assembled from. Entries with synonyms
 * give the agent's expansion keywords and the paraphrased questions something to differ on.
 */

export interface Term {
  readonly name: string;
  /** Other ways people say it: become expansion keywords and paraphrases. */
  readonly synonyms: readonly string[];
}

const term = (name: string, ...synonyms: string[]): Term => ({ name, synonyms });

export const DOMAINS = (
  'payments billing auth search checkout inventory shipping notifications analytics reporting ledger catalog ' +
  'pricing identity onboarding scheduler ingest media thumbnails email sms webhooks audit export import ' +
  'flags sessions orders refunds invoices subscriptions recommendations geo maps chat comments uploads metrics ' +
  'tracing fraud'
).split(' ');

export const ROLES = 'api worker service gateway indexer cron consumer proxy sync frontend'.split(' ');

/** Technologies in groups of things that replace one another (decisions move within a group). */
export const TECH_GROUPS: readonly (readonly string[])[] = [
  ['PostgreSQL', 'MySQL', 'ClickHouse', 'Elasticsearch', 'MongoDB', 'SQLite', 'Cassandra'],
  ['Kafka', 'RabbitMQ', 'BullMQ', 'NATS', 'SQS', 'Pulsar', 'Temporal'],
  ['Redis', 'Memcached', 'Varnish', 'CloudFront', 'Fastly'],
  ['nginx', 'Envoy', 'HAProxy', 'Traefik', 'PgBouncer'],
  ['Terraform', 'Helm', 'Kustomize', 'Pulumi', 'Ansible'],
  ['Prometheus', 'Grafana', 'Sentry', 'OpenTelemetry', 'Datadog', 'Loki'],
  ['Jest', 'Vitest', 'Playwright', 'Cypress', 'webpack', 'Vite'],
];
export const MESSAGING = TECH_GROUPS[1];
export const DATASTORES = TECH_GROUPS[0];

export const CONFIG_KEYS: readonly (Term & { readonly unit: string; readonly max: number })[] = [
  { ...term('connection pool size', 'max connections', 'db pool'), unit: '', max: 200 },
  { ...term('request timeout', 'deadline', 'latency budget'), unit: ' ms', max: 30_000 },
  { ...term('max retries', 'retry limit', 'backoff attempts'), unit: '', max: 12 },
  { ...term('batch size', 'chunk size', 'page of records'), unit: '', max: 5_000 },
  { ...term('cache TTL', 'expiry', 'time to live'), unit: ' seconds', max: 86_400 },
  { ...term('rate limit', 'throttle', 'quota'), unit: ' requests per minute', max: 10_000 },
  { ...term('worker concurrency', 'parallelism', 'number of workers'), unit: '', max: 64 },
  { ...term('heap limit', 'memory limit', 'max old space'), unit: ' MiB', max: 8_192 },
  { ...term('replica count', 'replicas', 'instances'), unit: '', max: 24 },
  { ...term('circuit breaker threshold', 'failure threshold', 'trip point'), unit: ' errors', max: 500 },
  { ...term('page size', 'results per page', 'limit per request'), unit: '', max: 1_000 },
  { ...term('session lifetime', 'login expiry', 'session timeout'), unit: ' minutes', max: 10_080 },
  { ...term('upload size limit', 'max file size', 'body limit'), unit: ' MB', max: 2_048 },
  { ...term('keepalive interval', 'heartbeat', 'ping interval'), unit: ' seconds', max: 600 },
  { ...term('flush interval', 'write-behind delay', 'buffer flush'), unit: ' ms', max: 60_000 },
  { ...term('shard count', 'partitions', 'number of shards'), unit: '', max: 256 },
  { ...term('prefetch count', 'consumer prefetch', 'unacked messages'), unit: '', max: 1_000 },
  { ...term('lock timeout', 'lock wait', 'advisory lock deadline'), unit: ' ms', max: 20_000 },
];

export const BUGS: readonly Term[] = [
  term('race condition', 'data race', 'concurrency bug'),
  term('memory leak', 'heap growth', 'OOM'),
  term('deadlock', 'lock contention', 'hang'),
  term('off-by-one error', 'boundary bug', 'fencepost error'),
  term('null dereference', 'undefined access', 'crash on missing field'),
  term('timezone bug', 'UTC offset', 'daylight saving'),
  term('N+1 query', 'too many queries', 'chatty ORM'),
  term('stale cache read', 'cache inconsistency', 'outdated data'),
  term('connection leak', 'exhausted pool', 'leaked sockets'),
  term('duplicate webhook delivery', 'double delivery', 'idempotency bug'),
  term('integer overflow', 'wraparound', 'counter overflow'),
  term('unicode normalization bug', 'encoding issue', 'mojibake'),
  term('flaky test', 'nondeterministic test', 'intermittent CI failure'),
  term('retry storm', 'thundering herd', 'retry amplification'),
  term('pagination gap', 'skipped rows', 'cursor bug'),
  term('double charge', 'duplicate payment', 'charged twice'),
  term('lost update', 'overwritten write', 'last writer wins'),
  term('redirect loop', 'infinite redirect', 'too many redirects'),
  term('expired certificate', 'TLS failure', 'cert rotation'),
  term('slow migration', 'long lock during migration', 'blocking DDL'),
];

export const SYMPTOMS = [
  'p99 latency spikes',
  'intermittent 502 errors',
  'timeouts under load',
  'CPU pinned at 100%',
  'pods getting OOM-killed',
  'duplicate emails to customers',
  'missing rows in the nightly export',
  'slow dashboard loads',
  'a growing queue backlog',
  'failed health checks after deploys',
  'wrong totals on invoices',
  'users logged out at random',
];

export const PEOPLE = (
  'Alice Bob Carmen Dmitri Elena Farid Grace Hiro Ines Jamal Kenji Lena Mateo Nadia Omar Priya Quinn Rosa Sven ' +
  'Tara Uma Viktor Wen Xavier Yara Zoe Amara Bruno Chiara Diego Esther Felix Gita Hana Ivan Julia Kofi Lucia Marek ' +
  'Nina Oscar Paula Rafael Sofia Tomas Ursula Valentin Willa Yusuf Zara'
).split(' ');

export const ENVIRONMENTS = ['production', 'staging', 'canary', 'eu-west', 'us-east', 'local dev'];

export const REASONS = [
  'to cut cloud costs',
  'because the old client had no backpressure',
  'for exactly-once delivery',
  'to simplify on-call',
  'after the March outage',
  'because the vendor ended support',
  'to get per-tenant isolation',
  'so that deploys stop needing downtime',
  'to halve cold-start time',
];

export const STYLES: readonly Term[] = [
  term('early returns', 'guard clauses'),
  term('small pull requests', 'small diffs'),
  term('table-driven tests', 'parameterized tests'),
  term('explicit error types', 'typed errors'),
  term('named exports', 'no default exports'),
  term('structured logging', 'JSON logs'),
  term('feature flags for risky changes', 'gradual rollout'),
  term('integration tests against a real database', 'no mocks for the database'),
];

export const PATTERNS: readonly Term[] = [
  term('the outbox pattern', 'transactional outbox'),
  term('idempotency keys', 'dedup keys'),
  term('exponential backoff with jitter', 'randomized backoff'),
  term('a dead-letter queue', 'DLQ'),
  term('optimistic locking with a version column', 'compare-and-swap'),
  term('cursor pagination', 'keyset pagination'),
  term('a read-through cache', 'cache-aside'),
];

export const ACTIONS = [
  'remove the legacy v1 endpoints',
  'add an index on created_at',
  'rotate the signing keys',
  'split the monolith job into smaller tasks',
  'upgrade the client library',
  'add tracing spans around the slow handler',
  'move secrets into Vault',
  'delete the unused feature flag',
];

export const DIRS = [
  'src/config',
  'src/lib',
  'deploy/helm',
  'infra/terraform',
  'scripts',
  'packages/core/src',
  'apps/web/src',
  'test/integration',
  'docs/adr',
  'migrations',
  'k8s/overlays/prod',
];
export const FILE_BASES =
  'database redis queue client server retry cache logger settings routes schema values limiter pool worker'.split(' ');
export const EXTENSIONS = ['ts', 'yaml', 'json', 'go', 'py', 'tf', 'sql'];
export const MONTHS = 'January February March April May June July August September October November December'.split(
  ' ',
);
export const WEEKDAYS = 'Monday Tuesday Wednesday Thursday Friday'.split(' ');
export const EXTRAS = [
  'This only affects {env}.',
  'Docs are in {file}.',
  'Check with {person} before changing it again.',
  'It came up in the {weekday} architecture sync.',
  'The runbook links to ticket {ticket}.',
  'Nobody has revisited this since {month}.',
];
