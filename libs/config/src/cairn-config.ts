import { type AppName } from './config.schema';
import { type McpAuthorizationServerSettings } from './mcp-authorization-servers.schema';
import { type OidcProviderSettings } from './oidc-providers.schema';

/** An identity provider people sign in with (OIDC_PROVIDERS), with its client secret (OIDC_CLIENT_SECRETS). */
export type OidcProviderConfig = Readonly<OidcProviderSettings> & { readonly clientSecret: string };

/** An authorization server whose JWT access tokens the gateway accepts (MCP_AUTHORIZATION_SERVERS), its audience resolved. */
export type McpAuthorizationServerConfig = Readonly<McpAuthorizationServerSettings> & { readonly audience: string };

/**
 * The one validated configuration object, built once at boot by `loadConfig`.
 * Nothing else in the code base reads `process.env`.
 */
/** The name of DATABASE_URL's cluster, which keeps the control schema (docs/scaling.md). */
export const HOME_CLUSTER = 'home';

/** Every PostgreSQL cluster tenants may live on, home first. */
export function databaseClusterNames(config: CairnConfig): string[] {
  return [HOME_CLUSTER, ...config.database.clusters.map((cluster) => cluster.name)];
}

/** A cluster's connection URL (home's is DATABASE_URL); undefined for a name configuration does not have. */
export function databaseClusterUrl(config: CairnConfig, name: string): string | undefined {
  if (name === HOME_CLUSTER) return config.database.url;
  return config.database.clusters.find((cluster) => cluster.name === name)?.url;
}

export interface CairnConfig {
  readonly app: AppName;
  readonly nodeEnv: 'development' | 'test' | 'production';
  readonly database: {
    readonly url: string;
    readonly poolMax: number;
    /** Seconds after which a pooled connection is replaced (0: never); bounds catalog-cache memory. */
    readonly poolMaxLifetimeSeconds: number;
    /** Tenant schemas a pooled connection may work in before it is replaced (0: no bound); bounds catalog caches. */
    readonly poolTenantsPerConnection: number;
    readonly statementTimeoutMs: number;
    /**
     * Further clusters tenants may be placed on (docs/scaling.md); DATABASE_URL is `home`, which
     * keeps the control schema. Empty: one database, the placement machinery stays idle.
     */
    readonly clusters: readonly { readonly name: string; readonly url: string }[];
    /** Where new tenants go; unset: the cluster with the fewest live tenants. */
    readonly placementCluster: string | undefined;
    /** DATABASE_POOLER: `transaction` when a transaction-mode pooler (PgBouncer) sits in front. */
    readonly pooler: 'none' | 'transaction';
    /** DATABASE_DIRECT_URL: straight to PostgreSQL, beside the pooler. */
    readonly directUrl: string | undefined;
    /**
     * Where work that needs a session of its own connects (LISTEN, session advisory locks): the
     * direct URL, else DATABASE_URL unless that is a transaction pooler; undefined when there is
     * none, and such work falls back (the token cache stays off) or refuses (migrate).
     */
    readonly sessionUrl: string | undefined;
    /** Hot queries as named prepared statements (DATABASE_PREPARED_STATEMENTS). */
    readonly preparedStatements: boolean;
  };
  readonly redis: { readonly url: string };
  readonly secrets: {
    /** Platform admin bootstrap token; only the api needs it. */
    readonly adminToken: string | undefined;
    /**
     * 32-byte master key that wraps every tenant's data key (@cairn/encryption). Required by the
     * api, gateway and worker in every environment: `npm start` generates one into
     * .cairn/secrets.json, tests make a random one, production reads it from a Secret.
     */
    readonly masterKey: Buffer | undefined;
    /** The previous master key, during a rotation only: data keys it wraps stay readable. */
    readonly previousMasterKey: Buffer | undefined;
  };
  readonly http: {
    readonly host: string;
    readonly ports: { readonly api: number; readonly mcpGateway: number; readonly worker: number };
    readonly bodyLimitBytes: number;
    readonly shutdownTimeoutMs: number;
    /** SIGTERM → not ready, still serving, for this long; then the listener closes (SHUTDOWN_DRAIN_MS). */
    readonly shutdownDrainMs: number;
  };
  readonly log: { readonly level: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent' };
  readonly tokens: { readonly defaultTtlSeconds: number; readonly maxTtlSeconds: number };
  readonly embeddings: {
    readonly provider: 'hash' | 'local' | 'ollama' | 'openai';
    /** Provider model name; undefined for the built-in hash embedder (and optional for local). */
    readonly model: string | undefined;
    readonly dimensions: number | undefined;
    readonly batchSize: number;
    /** Provider requests the worker keeps in flight; texts of concurrent jobs share them. */
    readonly maxInFlight: number;
    /** Absolute path of the models directory the local provider loads from. */
    readonly modelsDir: string;
    readonly threads: number;
    /** A search's wait for its query vector; past it the search runs by keyword and says so. */
    readonly queryTimeoutMs: number;
    /** Embedding a short write right after it commits, in the writing process (hash and local embedders only). */
    readonly inline: {
      readonly enabled: boolean;
      /** Embedding texts longer than this are left to the queue. */
      readonly maxChars: number;
      /** The longest a write waits for its vector. */
      readonly budgetMs: number;
      /** Inline embeds at once per process; past it, the queue. */
      readonly maxInFlight: number;
    };
  };
  readonly chat: { readonly provider: 'none' | 'ollama' | 'openai'; readonly model: string | undefined };
  readonly providers: {
    readonly ollama: { readonly url: string; readonly keepAlive: string };
    readonly openai: { readonly baseUrl: string | undefined; readonly apiKey: string | undefined };
    readonly timeoutMs: number;
  };
  /** The optional reranking stage of search: off (the default) while `url` is undefined. */
  readonly rerank: {
    /** The server's base URL, without a trailing slash; the path is the API's. */
    readonly url: string | undefined;
    /** `cohere`: `POST {url}/v1/rerank`; `tei`: text-embeddings-inference's `POST {url}/rerank`. */
    readonly api: 'cohere' | 'tei';
    readonly model: string | undefined;
    readonly apiKey: string | undefined;
    /** How many fused results are sent; the reranker's order replaces the fused order among them. */
    readonly candidates: number;
    /** Candidates per request; a search's requests go out concurrently, within one `timeoutMs`. */
    readonly batchSize: number;
    /** A search's wait for the reranker; past it the fused order stands and the report says so. */
    readonly timeoutMs: number;
  };
  /** Recall's optional model-based query rewrite: off (the default) unless QUERY_REWRITE=on. */
  readonly queryRewrite: {
    /** Only with a chat model configured (the configuration refuses QUERY_REWRITE=on without one). */
    readonly enabled: boolean;
    /** A recall's wait for the model; past it the model-free parts stand and the report says so. */
    readonly timeoutMs: number;
  };
  readonly worker: {
    readonly concurrency: {
      readonly embeddings: number;
      readonly summaries: number;
      readonly extraction: number;
      readonly maintenance: number;
      /** Fetches are network-bound: several at once cost little CPU. */
      readonly knowledge: number;
    };
    readonly attempts: number;
    readonly backoffMs: number;
    readonly stalledIntervalMs: number;
    readonly sweepIntervalSeconds: number;
    readonly maintenanceIntervalSeconds: number;
  };
  readonly memory: {
    readonly contentMaxChars: number;
    readonly workingMemoryCap: number;
    readonly briefingTokenBudget: number;
  };
  readonly knowledge: {
    readonly documentMaxChars: number;
    /** Days a document of each retention tier is kept. */
    readonly retentionDays: { readonly external: number; readonly internal: number; readonly summary: number };
    /** How long `kb_fetch` waits for the worker's fetch before answering 202 with the job id. */
    readonly fetchWaitMs: number;
    /** Fetches one project may make per UTC day, counted across replicas. */
    readonly fetchDailyBudget: number;
  };
  /** The web console's built files (index.html and hashed assets), absolute. */
  readonly console: { readonly dir: string };
  readonly audit: {
    /** Days a tenant's audit entries are kept before the maintenance purge prunes them; 0 = forever. */
    readonly retentionDays: number;
  };
  readonly mcp: {
    /** The gateway's public base URL (scheme, host, optional path prefix), as clients reach it; undefined = from the request. */
    readonly publicUrl: string | undefined;
    /** Browser origins allowed to call `/mcp`; requests without `Origin` (non-browser clients) are always allowed. */
    readonly allowedOrigins: readonly string[] | '*';
    /**
     * External authorization servers whose JWT access tokens the gateway accepts (docs/oauth.md);
     * empty: session tokens only, and the protected resource metadata names no authorization server.
     * Only the gateway gets them.
     */
    readonly authorizationServers: readonly McpAuthorizationServerConfig[];
  };
  /** Requests per minute, enforced in Redis so the limit holds across replicas. */
  readonly rateLimits: {
    readonly tokenPerMinute: number;
    readonly tenantPerMinute: number;
    /** Coordination-channel messages per agent per minute (on top of the request budgets). */
    readonly broadcastPerMinute: number;
  };
  /** Token verification: how long a verified token may be answered from memory (0: never). */
  readonly auth: { readonly tokenCacheTtlMs: number };
  /** People signing in (@cairn/accounts, docs/sign-in.md). */
  readonly accounts: {
    readonly localLoginEnabled: boolean;
    readonly cookieSecure: boolean;
    readonly idleTimeoutSeconds: number;
    readonly absoluteTimeoutSeconds: number;
    /** Failed sign-ins allowed per account and per client address within `attemptWindowSeconds`. */
    readonly accountAttempts: number;
    readonly ipAttempts: number;
    readonly attemptWindowSeconds: number;
    /** OIDC federation (docs/sign-in.md): only the api signs people in, so other apps get no providers. */
    readonly oidc: {
      /** API_PUBLIC_URL without a trailing slash; always set when `providers` is not empty. */
      readonly publicUrl: string | undefined;
      readonly providers: readonly OidcProviderConfig[];
    };
  };
  /** Cairn's own OAuth authorization server (@cairn/oauth, docs/oauth.md). */
  readonly oauth: {
    readonly enabled: boolean;
    /** The issuer: API_PUBLIC_URL without a trailing slash; set whenever `enabled`. */
    readonly issuer: string | undefined;
    /** The one resource its tokens are for: `<MCP_PUBLIC_URL>/mcp`; set whenever `enabled`. */
    readonly resource: string | undefined;
    /** The one scope its access tokens carry for the resource (advertised by the gateway). */
    readonly scope: 'mcp';
    readonly accessTokenTtlSeconds: number;
    readonly refreshTokenTtlSeconds: number;
    readonly grantTtlSeconds: number;
    readonly dynamicRegistration: boolean;
    readonly clientMetadataDocuments: boolean;
    readonly registrationsPerHour: number;
  };
  /** The start-up check of the shipped files against their build-time digests (@cairn/integrity). */
  readonly integrity: {
    readonly mode: 'off' | 'warn' | 'strict';
    /** Absolute path of the manifest. */
    readonly manifestPath: string;
    /** What the manifest's paths are relative to: the working directory (/app in the image). */
    readonly baseDir: string;
  };
  /** BullMQ key prefix; lets several installations (or test files) share one Redis. */
  readonly queues: {
    readonly prefix: string;
    /** Interactive embed jobs ahead of bulk ones, and bulk work shared between tenants in turn. */
    readonly embeddingFairness: boolean;
  };
}

export const CAIRN_CONFIG = Symbol('CAIRN_CONFIG');
