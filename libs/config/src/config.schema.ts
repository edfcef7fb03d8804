import { z } from 'zod';
import { mcpAuthorizationServersVariable } from './mcp-authorization-servers.schema';
import { oidcClientSecretsVariable, oidcProvidersVariable } from './oidc-providers.schema';

/** Apps that read configuration; each requires only the settings it uses. */
export type AppName = 'api' | 'mcp-gateway' | 'worker' | 'migrate' | 'bench' | 'keys';

const port = (fallback: number) => z.coerce.number().int().min(1).max(65535).default(fallback);
/** Where the local embedding model lives unless EMBEDDING_MODELS_DIR says otherwise (relative to the working directory). */
export const DEFAULT_MODELS_DIR = '.cairn/models';

/**
 * EMBEDDING_MODEL's values with EMBEDDING_PROVIDER=local and their dimensions: the catalogue of
 * @cairn/embeddings (LOCAL_MODELS, which a test keeps equal to this), the first the default.
 */
export const LOCAL_EMBEDDING_MODELS: Readonly<Record<string, number>> = {
  'all-minilm-l6-v2': 384,
  'bge-small-en-v1.5': 384,
};
/**
 * Where `npm run build` puts the web console, relative to the working directory (the repository
 * root, or /app in the image), served by the api under /console. Not a variable: the build decides it.
 */
export const DEFAULT_CONSOLE_DIR = 'dist/console';
/**
 * Where the build-time manifest of the shipped files' digests is read from (relative to the
 * working directory): written by the image build (tools/integrity), or `npm run integrity:manifest`.
 */
export const DEFAULT_INTEGRITY_MANIFEST = 'dist/integrity.json';

const positiveInt = (fallback: number, max: number) => z.coerce.number().int().min(1).max(max).default(fallback);
/** `true` or `false`, spelled out: a typo must fail start-up rather than read as either. */
const flag = (fallback: boolean) =>
  z
    .enum(['true', 'false'], 'must be true or false')
    .default(fallback ? 'true' : 'false')
    .transform((value) => value === 'true');

const postgresUrl = z.string().regex(/^postgres(ql)?:\/\/\S+$/, 'must be a postgres:// or postgresql:// URL');
/**
 * Further PostgreSQL clusters tenants may be placed on (docs/scaling.md): `name=url,name=url`.
 * `home` is DATABASE_URL's name; names are lowercase so they can be stored and typed safely.
 */
const databaseClusters = z.string().transform((value, ctx) => {
  const clusters: { name: string; url: string }[] = [];
  for (const entry of value
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean)) {
    const at = entry.indexOf('=');
    const name = at > 0 ? entry.slice(0, at) : '';
    const url = entry.slice(at + 1);
    if (!/^[a-z][a-z0-9-]{0,30}$/.test(name) || name === 'home') {
      ctx.addIssue({ code: 'custom', message: `"${name}" is not a cluster name ([a-z][a-z0-9-]*, not "home")` });
    } else if (!postgresUrl.safeParse(url).success) {
      ctx.addIssue({ code: 'custom', message: `cluster "${name}" needs a postgres:// or postgresql:// URL` });
    } else if (clusters.some((c) => c.name === name)) {
      ctx.addIssue({ code: 'custom', message: `cluster "${name}" is named twice` });
    } else clusters.push({ name, url });
  }
  return clusters;
});
const clusterName = z.string().regex(/^[a-z][a-z0-9-]{0,30}$/, 'must be a cluster name');
const redisUrl = z.string().regex(/^rediss?:\/\/\S+$/, 'must be a redis:// or rediss:// URL');
const httpUrl = z.string().regex(/^https?:\/\/[^\s/?#]+(\/\S*)?$/, 'must be an http:// or https:// URL');
/** Model names as Ollama and OpenAI-compatible servers spell them, e.g. `nomic-embed-text:v1.5`. */
const modelName = z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._:/@+-]{0,127}$/, 'must be a model name');

/** The bootstrap platform admin token; long and random so it cannot be guessed. */
const adminToken = z
  .string()
  .min(32, 'must be at least 32 characters (generate one with: openssl rand -base64 32)')
  .max(512, 'must be at most 512 characters')
  .regex(/^[\x21-\x7e]+$/, 'must be printable ASCII without spaces');

/** A 32-byte master key as base64 (44 characters, `openssl rand -base64 32`) or hex (64 characters). */
export function decodeMasterKey(value: string): Buffer | undefined {
  if (/^[0-9a-fA-F]{64}$/.test(value)) return Buffer.from(value, 'hex');
  if (!/^[A-Za-z0-9+/]{43}=?$/.test(value)) return undefined;
  const key = Buffer.from(value, 'base64');
  return key.length === 32 ? key : undefined;
}

/** Master key for envelope encryption; the message never repeats the value. */
const masterKey = z
  .string()
  .refine(
    (value) => decodeMasterKey(value) !== undefined,
    'must be exactly 32 random bytes as base64 or hex (generate one with: openssl rand -base64 32)',
  );

export const environmentSchema = z.object({
  NODE_ENV: z.enum(['development', 'test', 'production']).default('production'),
  DATABASE_URL: postgresUrl.optional(),
  DATABASE_POOL_MAX: positiveInt(10, 500),
  DATABASE_STATEMENT_TIMEOUT_MS: positiveInt(30_000, 3_600_000),
  /**
   * A pooled connection is closed and replaced once this old (0: never). Each PostgreSQL backend
   * caches the catalog entries of every tenant schema it has touched, and nothing but a new
   * connection gives that memory back (bench: --only tenants), so a long-lived pool serving
   * thousands of tenants must recycle its connections.
   */
  DATABASE_POOL_MAX_LIFETIME_SECONDS: z.coerce.number().int().min(0).max(86_400).default(1_800),
  /**
   * A pooled connection is closed and replaced once it has worked in this many tenant schemas (0:
   * never). Age alone does not bound a backend's caches: one that met 1,200 tenants in minutes held
   * 676 MiB and took 8–9 s to create a tenant's schema (every catalog change it makes or sees walks
   * what it cached), against 26 MiB and 0.1 s fresh (docs/scaling.md). Ignored behind a transaction
   * pooler, whose server connections the app does not own (PgBouncer's `server_lifetime` bounds them).
   */
  DATABASE_POOL_TENANTS_PER_CONNECTION: z.coerce.number().int().min(0).max(1_000_000).default(100),
  DATABASE_CLUSTERS: databaseClusters.default([]),
  DATABASE_PLACEMENT_CLUSTER: clusterName.optional(),
  /**
   * What stands between the apps and PostgreSQL: `none` (a direct connection, or a session-mode
   * pooler) or `transaction` (PgBouncer in transaction mode and its kin: no session state survives
   * a transaction). See the README's "Behind PgBouncer".
   */
  DATABASE_POOLER: z.enum(['none', 'transaction'], 'must be none or transaction').default('none'),
  /**
   * A session-capable connection straight to PostgreSQL, beside a transaction pooler: LISTEN
   * (the token cache's change notices) and session advisory locks (`npm run migrate`,
   * `npm run keys:rotate`) use it.
   */
  DATABASE_DIRECT_URL: postgresUrl.optional(),
  /**
   * Named (protocol-level) prepared statements for the hot queries: default `on`, or `off` with
   * DATABASE_POOLER=transaction. `on` behind PgBouncer >= 1.21 with `max_prepared_statements` set.
   */
  DATABASE_PREPARED_STATEMENTS: z.enum(['on', 'off'], 'must be on or off').optional(),
  REDIS_URL: redisUrl.optional(),
  CAIRN_ADMIN_TOKEN: adminToken.optional(),
  CAIRN_MASTER_KEY: masterKey.optional(),
  /** The master key being rotated away from: set only while `npm run keys:rotate` re-wraps the data keys. */
  CAIRN_MASTER_KEY_PREVIOUS: masterKey.optional(),
  HOST: z.string().min(1).default('0.0.0.0'),
  API_PORT: port(8080),
  MCP_PORT: port(8081),
  WORKER_PORT: port(8082),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  HTTP_BODY_LIMIT_BYTES: positiveInt(1_048_576, 64 * 1_048_576),
  SHUTDOWN_TIMEOUT_MS: positiveInt(25_000, 600_000),
  /**
   * After SIGTERM, how long an app keeps serving (new connections included) while /readyz
   * answers 503, so load balancers and Kubernetes endpoints stop routing to it before it closes
   * its listener. 0 closes at once. Sized for an endpoint update to reach every proxy.
   */
  SHUTDOWN_DRAIN_MS: z.coerce.number().int().min(0).max(300_000).default(5_000),
  TOKEN_DEFAULT_TTL_SECONDS: positiveInt(30 * 86_400, 365 * 86_400),
  TOKEN_MAX_TTL_SECONDS: positiveInt(90 * 86_400, 365 * 86_400),
  EMBEDDING_PROVIDER: z.enum(['hash', 'local', 'ollama', 'openai']).default('hash'),
  EMBEDDING_MODEL: modelName.optional(),
  EMBEDDING_DIMENSIONS: z.coerce.number().int().min(1).max(2_000).optional(),
  EMBEDDING_BATCH_SIZE: positiveInt(32, 1_024),
  EMBEDDING_MAX_IN_FLIGHT: positiveInt(2, 64),
  /** Where `npm run models` puts the local model, and where the `local` provider loads it from. */
  EMBEDDING_MODELS_DIR: z.string().min(1).max(4_096).default(DEFAULT_MODELS_DIR),
  /** How long a search waits for its query vector before it runs by keyword alone. */
  QUERY_EMBEDDING_TIMEOUT_MS: positiveInt(2_000, 60_000),
  /** Threads ONNX Runtime uses for one local inference. */
  EMBEDDING_THREADS: positiveInt(1, 64),
  /**
   * Embed a short write in the writing process right after it commits (in-process embedders
   * only: hash, local), so it is searchable by meaning when the store answers; the queued job
   * stays the fallback. See docs/retrieval.md "Searchable by meaning at once".
   */
  EMBEDDING_INLINE: flag(true),
  /** Longer texts (content plus keywords) are left to the queue: a long inference would hold the answer. */
  EMBEDDING_INLINE_MAX_CHARS: positiveInt(2_000, 100_000),
  /** How long a write waits for its inline vector; past it the answer goes and the queue (or the late call) stores it. */
  EMBEDDING_INLINE_BUDGET_MS: positiveInt(150, 10_000),
  /**
   * Inline embeds one process runs at once; writes past it are left to the queue, never waited
   * for. The local model infers on a thread of its own (they wait their turn there, not on the
   * event loop); the built-in embedder's cost is its store statement.
   */
  EMBEDDING_INLINE_MAX_IN_FLIGHT: positiveInt(4, 64),
  CHAT_PROVIDER: z.enum(['none', 'ollama', 'openai']).default('none'),
  CHAT_MODEL: modelName.optional(),
  OLLAMA_URL: httpUrl.default('http://127.0.0.1:11434'),
  OLLAMA_KEEP_ALIVE: z
    .string()
    .regex(/^(-1|0|\d+[smh]?)$/, 'must be a duration such as 5m, 1h, 300 or -1')
    .default('5m'),
  OPENAI_BASE_URL: httpUrl.optional(),
  OPENAI_API_KEY: z.string().min(1).max(512).optional(),
  PROVIDER_TIMEOUT_MS: positiveInt(30_000, 600_000),
  /** A cross-encoder's server (RERANK_API says which path); unset, recall keeps the fused order. */
  RERANK_URL: httpUrl.optional(),
  /**
   * The server's API: `cohere` (`POST {url}/v1/rerank`: llama.cpp, vLLM, Jina, Cohere-compatible
   * gateways) or `tei` (Hugging Face text-embeddings-inference, `POST {url}/rerank`).
   */
  RERANK_API: z.enum(['cohere', 'tei']).default('cohere'),
  RERANK_MODEL: modelName.optional(),
  RERANK_API_KEY: z.string().min(1).max(512).optional(),
  /**
   * Fused results sent to the reranker; it reorders these, the rest follow in fused order. Deep
   * enough by default that both rankers' candidates reach it, not only the keyword ranker's head.
   */
  RERANK_CANDIDATES: positiveInt(100, 500),
  /** Candidates per request; requests go out at once. TEI refuses more than its --max-client-batch-size (32). */
  RERANK_BATCH_SIZE: positiveInt(32, 500),
  /** How long a search waits for the reranker before it keeps the fused order. */
  RERANK_TIMEOUT_MS: positiveInt(800, 60_000),
  /**
   * `on`: recall asks the chat model (CHAT_PROVIDER) for a question's sub-questions and ranks
   * them beside it; `off` (the default) keeps the model-free decomposition only.
   */
  QUERY_REWRITE: z.enum(['off', 'on']).default('off'),
  /** How long a recall waits for the rewrite before it keeps the model-free parts. */
  QUERY_REWRITE_TIMEOUT_MS: positiveInt(1_500, 60_000),
  WORKER_CONCURRENCY_EMBEDDINGS: positiveInt(16, 256),
  WORKER_CONCURRENCY_SUMMARIES: positiveInt(2, 64),
  WORKER_CONCURRENCY_EXTRACTION: positiveInt(1, 64),
  WORKER_CONCURRENCY_MAINTENANCE: positiveInt(1, 16),
  WORKER_CONCURRENCY_KNOWLEDGE: positiveInt(4, 64),
  JOB_ATTEMPTS: positiveInt(5, 50),
  JOB_BACKOFF_MS: positiveInt(1_000, 600_000),
  WORKER_STALLED_INTERVAL_MS: positiveInt(30_000, 600_000),
  SWEEP_INTERVAL_SECONDS: positiveInt(300, 86_400),
  MAINTENANCE_INTERVAL_SECONDS: positiveInt(3_600, 7 * 86_400),
  MEMORY_CONTENT_MAX_CHARS: positiveInt(8_000, 100_000),
  WORKING_MEMORY_CAP: positiveInt(100, 10_000),
  BRIEFING_TOKEN_BUDGET: positiveInt(2_000, 32_000),
  KB_DOCUMENT_MAX_CHARS: positiveInt(500_000, 5_000_000),
  KB_RETENTION_EXTERNAL_DAYS: positiveInt(14, 3_650),
  KB_RETENTION_INTERNAL_DAYS: positiveInt(30, 3_650),
  KB_RETENTION_SUMMARY_DAYS: positiveInt(365, 3_650),
  /** Up to the fetch's own 15 s bound (plus queueing); longer fetches answer 202 with the job id. */
  KB_FETCH_WAIT_MS: positiveInt(10_000, 60_000),
  KB_FETCH_DAILY_BUDGET: positiveInt(50, 100_000),
  /** Days a tenant's audit entries are kept; 0 keeps them forever. */
  AUDIT_RETENTION_DAYS: z.coerce.number().int().min(0).max(36_500).default(365),
  MCP_PUBLIC_URL: httpUrl.optional(),
  MCP_ALLOWED_ORIGINS: z
    .string()
    .regex(
      /^(\*|https?:\/\/[^\s,/]+(,\s*https?:\/\/[^\s,/]+)*)$/,
      'must be * or a comma-separated list of origins such as https://app.example.com',
    )
    .optional(),
  /**
   * Existing authorization servers whose JWT access tokens the gateway accepts beside session
   * tokens (JSON array; docs/oauth.md). Listed in the protected resource metadata.
   */
  MCP_AUTHORIZATION_SERVERS: mcpAuthorizationServersVariable.optional(),
  RATE_LIMIT_TOKEN_PER_MINUTE: positiveInt(600, 1_000_000),
  RATE_LIMIT_TENANT_PER_MINUTE: positiveInt(6_000, 10_000_000),
  /** Messages each agent may post per minute on the coordination channel (across its projects). */
  BROADCAST_RATE_PER_MINUTE: positiveInt(10, 1_000_000),
  /** How long a replica may answer a token from memory (emptied on every change notice); 0 looks every request up. */
  TOKEN_CACHE_TTL_MS: z.coerce.number().int().min(0).max(300_000).default(0),
  /** Sign-in with an email and password (@cairn/accounts); false leaves only federated sign-in. */
  LOCAL_LOGIN_ENABLED: flag(true),
  /**
   * The browser session cookie is `__Host-cairn_session` with Secure; false names it
   * `cairn_session` without Secure, for plain-http use on a trusted machine only.
   */
  SESSION_COOKIE_SECURE: flag(true),
  /** A browser session ends after this long without a request. */
  SESSION_IDLE_TIMEOUT_SECONDS: positiveInt(1_800, 7 * 86_400),
  /** A browser session (and the token behind it) ends this long after sign-in, however active. */
  SESSION_ABSOLUTE_TIMEOUT_SECONDS: positiveInt(43_200, 30 * 86_400),
  /** Failed sign-ins one account (tenant and email) may have per LOGIN_ATTEMPT_WINDOW_SECONDS. */
  LOGIN_ACCOUNT_ATTEMPTS: positiveInt(5, 1_000),
  /** Failed sign-ins one client address may have per LOGIN_ATTEMPT_WINDOW_SECONDS. */
  LOGIN_IP_ATTEMPTS: positiveInt(30, 100_000),
  LOGIN_ATTEMPT_WINDOW_SECONDS: positiveInt(900, 86_400),
  /**
   * The api's public base URL as browsers reach it (the console's origin), e.g.
   * https://cairn.example.com: identity providers send people back to
   * `<API_PUBLIC_URL>/v1/session/oidc/<id>/callback`. Required with OIDC_PROVIDERS.
   */
  API_PUBLIC_URL: httpUrl.optional(),
  /** Identity providers people may sign in with (JSON array; docs/sign-in.md, "OIDC federation"). */
  OIDC_PROVIDERS: oidcProvidersVariable.optional(),
  /** Their client secrets, `{"<provider id>": "<secret>"}` (JSON), from a Secret; the api alone reads it. */
  OIDC_CLIENT_SECRETS: oidcClientSecretsVariable.optional(),
  /**
   * Cairn's own OAuth 2.1 authorization server (docs/oauth.md), served by the api for MCP clients
   * that only speak OAuth; the gateway then names it in its protected-resource metadata and takes
   * its access tokens. Needs API_PUBLIC_URL (the issuer), MCP_PUBLIC_URL (the resource) and
   * CAIRN_MASTER_KEY (its signing and cookie keys are derived from it).
   */
  OAUTH_ENABLED: flag(false),
  /** Lifetime of an access token it issues; short, since a refresh token renews it. */
  OAUTH_ACCESS_TOKEN_TTL_SECONDS: positiveInt(600, 3_600),
  /** Lifetime of a refresh token; each use rotates it. */
  OAUTH_REFRESH_TOKEN_TTL_SECONDS: positiveInt(30 * 86_400, 365 * 86_400),
  /** How long a person's consent lasts before the client must ask again (at most TOKEN_MAX_TTL_SECONDS). */
  OAUTH_GRANT_TTL_SECONDS: positiveInt(90 * 86_400, 365 * 86_400),
  /** RFC 7591 dynamic client registration (older MCP clients register; the 2026 revision prefers metadata documents). */
  OAUTH_DYNAMIC_REGISTRATION: flag(true),
  /** Client ID Metadata Documents: a client whose id is an https URL is described by the document there. */
  OAUTH_CLIENT_METADATA_DOCUMENTS: flag(true),
  /** Dynamic registrations one client address may make per hour. */
  OAUTH_REGISTRATIONS_PER_HOUR: positiveInt(20, 10_000),
  /**
   * The start-up check of the running files against the build-time manifest (@cairn/integrity):
   * `off`, `warn` (report in the log, /readyz and metrics, serve on; without a manifest, as in a
   * checkout, it only says there is none) or `strict` (refuse to start unless every file matches).
   */
  CAIRN_INTEGRITY: z.enum(['off', 'warn', 'strict']).default('warn'),
  CAIRN_INTEGRITY_MANIFEST: z.string().min(1).max(4_096).default(DEFAULT_INTEGRITY_MANIFEST),
  QUEUE_PREFIX: z
    .string()
    .regex(/^[a-z][a-z0-9_-]{0,31}$/, 'must be 1-32 lower-case letters, digits, _ or -')
    .default('cairn'),
  /**
   * Interactive embed jobs (writes through REST, MCP, hooks) ahead of bulk ones (imports,
   * sweeps, backfills, code uploads), and bulk work shared between tenants in turn, so one
   * tenant's backlog cannot hold another's. `false` is one FIFO queue for all (the old order).
   * See docs/embedding-queue.md.
   */
  EMBEDDING_QUEUE_FAIRNESS: flag(true),
});

export type Environment = z.infer<typeof environmentSchema>;

/** Which variables each app cannot start without. */
export const requiredByApp: Record<AppName, readonly (keyof Environment)[]> = {
  api: ['DATABASE_URL', 'REDIS_URL', 'CAIRN_ADMIN_TOKEN', 'CAIRN_MASTER_KEY'],
  'mcp-gateway': ['DATABASE_URL', 'REDIS_URL', 'CAIRN_MASTER_KEY'],
  worker: ['DATABASE_URL', 'REDIS_URL', 'CAIRN_MASTER_KEY'],
  migrate: ['DATABASE_URL'],
  bench: ['DATABASE_URL', 'REDIS_URL'],
  /** `npm run keys:rotate`: the database and the keys, nothing else. */
  keys: ['DATABASE_URL', 'CAIRN_MASTER_KEY'],
};
