import { resolve } from 'node:path';
import {
  type AppName,
  DEFAULT_CONSOLE_DIR,
  decodeMasterKey,
  type Environment,
  environmentSchema,
  LOCAL_EMBEDDING_MODELS,
  requiredByApp,
} from './config.schema';
import { type CairnConfig, type McpAuthorizationServerConfig, type OidcProviderConfig } from './cairn-config';

/** Thrown when configuration is missing or malformed; the message names variables, never values. */
export class ConfigurationError extends Error {
  constructor(readonly problems: readonly string[]) {
    super(`Invalid configuration: ${problems.join('; ')}`);
    this.name = 'ConfigurationError';
  }
}

type EnvSource = Readonly<Record<string, string | undefined>>;

/** Treats empty strings as unset, as shells and Kubernetes often pass `VAR=`. */
function withoutEmpty(env: EnvSource): Record<string, string> {
  const result: Record<string, string> = {};
  for (const [key, value] of Object.entries(env)) {
    if (value !== undefined && value.trim() !== '') result[key] = value.trim();
  }
  return result;
}

export function loadConfig(app: AppName, env: EnvSource): CairnConfig {
  const parsed = environmentSchema.safeParse(withoutEmpty(env));
  if (!parsed.success) {
    throw new ConfigurationError(parsed.error.issues.map((issue) => `${issue.path.join('.')} ${issue.message}`));
  }
  const values = parsed.data;
  const missing = requiredByApp[app].filter((name) => values[name] === undefined);
  if (missing.length > 0) {
    throw new ConfigurationError(missing.map((name) => `${name} is required`));
  }
  const problems = [
    ...crossFieldProblems(values),
    ...(app === 'api' ? oidcProblems(values) : []),
    ...(app === 'mcp-gateway' ? authorizationServerProblems(values) : []),
    ...oauthProblems(values),
  ];
  if (problems.length > 0) throw new ConfigurationError(problems);
  return Object.freeze({
    app,
    nodeEnv: values.NODE_ENV,
    database: {
      url: values.DATABASE_URL ?? '',
      poolMax: values.DATABASE_POOL_MAX,
      poolMaxLifetimeSeconds: values.DATABASE_POOL_MAX_LIFETIME_SECONDS,
      poolTenantsPerConnection: values.DATABASE_POOL_TENANTS_PER_CONNECTION,
      statementTimeoutMs: values.DATABASE_STATEMENT_TIMEOUT_MS,
      clusters: values.DATABASE_CLUSTERS,
      placementCluster: values.DATABASE_PLACEMENT_CLUSTER,
      pooler: values.DATABASE_POOLER,
      directUrl: values.DATABASE_DIRECT_URL,
      sessionUrl: values.DATABASE_DIRECT_URL ?? (values.DATABASE_POOLER === 'none' ? values.DATABASE_URL : undefined),
      // A transaction pooler hands each statement to any server connection, where a name
      // prepared on another is unknown (PgBouncer < 1.21, or without max_prepared_statements).
      preparedStatements:
        (values.DATABASE_PREPARED_STATEMENTS ?? (values.DATABASE_POOLER === 'none' ? 'on' : 'off')) === 'on',
    },
    redis: { url: values.REDIS_URL ?? '' },
    secrets: {
      adminToken: values.CAIRN_ADMIN_TOKEN,
      masterKey: values.CAIRN_MASTER_KEY ? decodeMasterKey(values.CAIRN_MASTER_KEY) : undefined,
      previousMasterKey: values.CAIRN_MASTER_KEY_PREVIOUS
        ? decodeMasterKey(values.CAIRN_MASTER_KEY_PREVIOUS)
        : undefined,
    },
    http: {
      host: values.HOST,
      ports: { api: values.API_PORT, mcpGateway: values.MCP_PORT, worker: values.WORKER_PORT },
      bodyLimitBytes: values.HTTP_BODY_LIMIT_BYTES,
      shutdownTimeoutMs: values.SHUTDOWN_TIMEOUT_MS,
      shutdownDrainMs: values.SHUTDOWN_DRAIN_MS,
    },
    log: { level: values.LOG_LEVEL },
    tokens: {
      defaultTtlSeconds: values.TOKEN_DEFAULT_TTL_SECONDS,
      maxTtlSeconds: values.TOKEN_MAX_TTL_SECONDS,
    },
    embeddings: {
      provider: values.EMBEDDING_PROVIDER,
      model: values.EMBEDDING_MODEL,
      dimensions: values.EMBEDDING_DIMENSIONS,
      batchSize: values.EMBEDDING_BATCH_SIZE,
      maxInFlight: values.EMBEDDING_MAX_IN_FLIGHT,
      modelsDir: resolve(values.EMBEDDING_MODELS_DIR),
      threads: values.EMBEDDING_THREADS,
      queryTimeoutMs: values.QUERY_EMBEDDING_TIMEOUT_MS,
      inline: {
        enabled: values.EMBEDDING_INLINE,
        maxChars: values.EMBEDDING_INLINE_MAX_CHARS,
        budgetMs: values.EMBEDDING_INLINE_BUDGET_MS,
        maxInFlight: values.EMBEDDING_INLINE_MAX_IN_FLIGHT,
      },
    },
    chat: { provider: values.CHAT_PROVIDER, model: values.CHAT_MODEL },
    providers: {
      ollama: { url: values.OLLAMA_URL.replace(/\/+$/, ''), keepAlive: values.OLLAMA_KEEP_ALIVE },
      openai: { baseUrl: values.OPENAI_BASE_URL?.replace(/\/+$/, ''), apiKey: values.OPENAI_API_KEY },
      timeoutMs: values.PROVIDER_TIMEOUT_MS,
    },
    rerank: {
      url: values.RERANK_URL?.replace(/\/+$/, ''),
      api: values.RERANK_API,
      model: values.RERANK_MODEL,
      apiKey: values.RERANK_API_KEY,
      candidates: values.RERANK_CANDIDATES,
      batchSize: values.RERANK_BATCH_SIZE,
      timeoutMs: values.RERANK_TIMEOUT_MS,
    },
    queryRewrite: { enabled: values.QUERY_REWRITE === 'on', timeoutMs: values.QUERY_REWRITE_TIMEOUT_MS },
    worker: {
      concurrency: {
        embeddings: values.WORKER_CONCURRENCY_EMBEDDINGS,
        summaries: values.WORKER_CONCURRENCY_SUMMARIES,
        extraction: values.WORKER_CONCURRENCY_EXTRACTION,
        maintenance: values.WORKER_CONCURRENCY_MAINTENANCE,
        knowledge: values.WORKER_CONCURRENCY_KNOWLEDGE,
      },
      attempts: values.JOB_ATTEMPTS,
      backoffMs: values.JOB_BACKOFF_MS,
      stalledIntervalMs: values.WORKER_STALLED_INTERVAL_MS,
      sweepIntervalSeconds: values.SWEEP_INTERVAL_SECONDS,
      maintenanceIntervalSeconds: values.MAINTENANCE_INTERVAL_SECONDS,
    },
    memory: {
      contentMaxChars: values.MEMORY_CONTENT_MAX_CHARS,
      workingMemoryCap: values.WORKING_MEMORY_CAP,
      briefingTokenBudget: values.BRIEFING_TOKEN_BUDGET,
    },
    knowledge: {
      documentMaxChars: values.KB_DOCUMENT_MAX_CHARS,
      retentionDays: {
        external: values.KB_RETENTION_EXTERNAL_DAYS,
        internal: values.KB_RETENTION_INTERNAL_DAYS,
        summary: values.KB_RETENTION_SUMMARY_DAYS,
      },
      fetchWaitMs: values.KB_FETCH_WAIT_MS,
      fetchDailyBudget: values.KB_FETCH_DAILY_BUDGET,
    },
    audit: { retentionDays: values.AUDIT_RETENTION_DAYS },
    console: { dir: resolve(DEFAULT_CONSOLE_DIR) },
    mcp: {
      publicUrl: values.MCP_PUBLIC_URL?.replace(/\/+$/, ''),
      allowedOrigins: parseOrigins(values.MCP_ALLOWED_ORIGINS),
      authorizationServers: app === 'mcp-gateway' ? authorizationServers(values) : [],
    },
    auth: { tokenCacheTtlMs: values.TOKEN_CACHE_TTL_MS },
    rateLimits: {
      tokenPerMinute: values.RATE_LIMIT_TOKEN_PER_MINUTE,
      tenantPerMinute: values.RATE_LIMIT_TENANT_PER_MINUTE,
      broadcastPerMinute: values.BROADCAST_RATE_PER_MINUTE,
    },
    accounts: {
      localLoginEnabled: values.LOCAL_LOGIN_ENABLED,
      cookieSecure: values.SESSION_COOKIE_SECURE,
      idleTimeoutSeconds: values.SESSION_IDLE_TIMEOUT_SECONDS,
      absoluteTimeoutSeconds: values.SESSION_ABSOLUTE_TIMEOUT_SECONDS,
      accountAttempts: values.LOGIN_ACCOUNT_ATTEMPTS,
      ipAttempts: values.LOGIN_IP_ATTEMPTS,
      attemptWindowSeconds: values.LOGIN_ATTEMPT_WINDOW_SECONDS,
      oidc: {
        publicUrl: values.API_PUBLIC_URL?.replace(/\/+$/, ''),
        providers: app === 'api' ? oidcProviders(values) : [],
      },
    },
    oauth: {
      enabled: values.OAUTH_ENABLED,
      issuer: values.OAUTH_ENABLED ? values.API_PUBLIC_URL?.replace(/\/+$/, '') : undefined,
      resource: values.OAUTH_ENABLED ? mcpResource(values) : undefined,
      scope: 'mcp' as const,
      accessTokenTtlSeconds: values.OAUTH_ACCESS_TOKEN_TTL_SECONDS,
      refreshTokenTtlSeconds: values.OAUTH_REFRESH_TOKEN_TTL_SECONDS,
      grantTtlSeconds: values.OAUTH_GRANT_TTL_SECONDS,
      dynamicRegistration: values.OAUTH_DYNAMIC_REGISTRATION,
      clientMetadataDocuments: values.OAUTH_CLIENT_METADATA_DOCUMENTS,
      registrationsPerHour: values.OAUTH_REGISTRATIONS_PER_HOUR,
    },
    integrity: {
      mode: values.CAIRN_INTEGRITY,
      manifestPath: resolve(values.CAIRN_INTEGRITY_MANIFEST),
      baseDir: resolve('.'),
    },
    queues: { prefix: values.QUEUE_PREFIX, embeddingFairness: values.EMBEDDING_QUEUE_FAIRNESS },
  });
}

/** The providers with their secrets; crossFieldProblems has checked that every one has a secret. */
function oidcProviders(values: Environment): OidcProviderConfig[] {
  return (values.OIDC_PROVIDERS ?? []).map((provider) =>
    Object.freeze({ ...provider, clientSecret: values.OIDC_CLIENT_SECRETS?.[provider.id] ?? '' }),
  );
}

/** The gateway's MCP resource URL (`<MCP_PUBLIC_URL>/mcp`), the default audience of external tokens. */
function mcpResource(values: Environment): string | undefined {
  return values.MCP_PUBLIC_URL ? `${values.MCP_PUBLIC_URL.replace(/\/+$/, '')}/mcp` : undefined;
}

/** The servers with their audiences; authorizationServerProblems has checked that each has one. */
function authorizationServers(values: Environment): McpAuthorizationServerConfig[] {
  return (values.MCP_AUTHORIZATION_SERVERS ?? []).map((server) =>
    Object.freeze({ ...server, audience: server.audience ?? mcpResource(values) ?? '' }),
  );
}

/**
 * A server without an audience of its own takes the gateway's resource URL, which only
 * MCP_PUBLIC_URL says (the Host of a request is no ground to accept a token on).
 */
function authorizationServerProblems(values: Environment): string[] {
  const servers = values.MCP_AUTHORIZATION_SERVERS ?? [];
  if (values.MCP_PUBLIC_URL || servers.every((server) => server.audience !== undefined)) return [];
  return [
    'MCP_PUBLIC_URL is required with MCP_AUTHORIZATION_SERVERS unless every server names its audience ' +
      '(the default audience is <MCP_PUBLIC_URL>/mcp)',
  ];
}

function parseOrigins(value: string | undefined): readonly string[] | '*' {
  if (value === '*') return '*';
  if (!value) return [];
  return value.split(',').map((origin) => origin.trim().toLowerCase());
}

/** Rules that involve more than one variable; each message names the variable to set. */
function crossFieldProblems(values: Environment): string[] {
  const problems: string[] = [];
  const placement = values.DATABASE_PLACEMENT_CLUSTER;
  if (placement && placement !== 'home' && !values.DATABASE_CLUSTERS.some((c) => c.name === placement)) {
    problems.push(`DATABASE_PLACEMENT_CLUSTER "${placement}" is neither home nor a cluster of DATABASE_CLUSTERS`);
  }
  if (values.TOKEN_DEFAULT_TTL_SECONDS > values.TOKEN_MAX_TTL_SECONDS) {
    problems.push('TOKEN_DEFAULT_TTL_SECONDS must not exceed TOKEN_MAX_TTL_SECONDS');
  }
  if (values.SESSION_IDLE_TIMEOUT_SECONDS > values.SESSION_ABSOLUTE_TIMEOUT_SECONDS) {
    problems.push('SESSION_IDLE_TIMEOUT_SECONDS must not exceed SESSION_ABSOLUTE_TIMEOUT_SECONDS');
  }
  if (values.EMBEDDING_PROVIDER === 'local') {
    // A model of the catalogue runs in the process (LOCAL_MODELS in @cairn/embeddings); its size is fixed.
    const names = Object.keys(LOCAL_EMBEDDING_MODELS);
    const name = values.EMBEDDING_MODEL || names[0];
    const dimensions = LOCAL_EMBEDDING_MODELS[name];
    if (dimensions === undefined) {
      problems.push(`EMBEDDING_MODEL must be one of ${names.join(', ')} (or unset) with EMBEDDING_PROVIDER=local`);
    } else if (values.EMBEDDING_DIMENSIONS && values.EMBEDDING_DIMENSIONS !== dimensions) {
      problems.push(`EMBEDDING_DIMENSIONS must be ${dimensions} (or unset) with EMBEDDING_PROVIDER=local`);
    }
  } else if (values.EMBEDDING_PROVIDER !== 'hash') {
    if (!values.EMBEDDING_MODEL)
      problems.push(`EMBEDDING_MODEL is required with EMBEDDING_PROVIDER=${values.EMBEDDING_PROVIDER}`);
    if (!values.EMBEDDING_DIMENSIONS) {
      problems.push(`EMBEDDING_DIMENSIONS is required with EMBEDDING_PROVIDER=${values.EMBEDDING_PROVIDER}`);
    }
  }
  if (values.CAIRN_MASTER_KEY && values.CAIRN_MASTER_KEY_PREVIOUS) {
    // The same key twice (say, base64 and hex of it) is a rotation that rotates nothing.
    const current = decodeMasterKey(values.CAIRN_MASTER_KEY);
    if (current?.equals(decodeMasterKey(values.CAIRN_MASTER_KEY_PREVIOUS) ?? Buffer.alloc(0))) {
      problems.push(
        'CAIRN_MASTER_KEY_PREVIOUS must differ from CAIRN_MASTER_KEY (it is the key being rotated away from)',
      );
    }
  }
  if (values.CHAT_PROVIDER !== 'none' && !values.CHAT_MODEL) {
    problems.push(`CHAT_MODEL is required with CHAT_PROVIDER=${values.CHAT_PROVIDER}`);
  }
  // Asked for and impossible: better refused at start-up than silently never done.
  if (values.QUERY_REWRITE === 'on' && values.CHAT_PROVIDER === 'none') {
    problems.push('QUERY_REWRITE=on needs a chat model (CHAT_PROVIDER and CHAT_MODEL)');
  }
  if ((values.EMBEDDING_PROVIDER === 'openai' || values.CHAT_PROVIDER === 'openai') && !values.OPENAI_BASE_URL) {
    problems.push('OPENAI_BASE_URL is required when a provider is openai');
  }
  if (values.RERANK_URL) {
    if (!values.RERANK_MODEL) problems.push('RERANK_MODEL is required with RERANK_URL');
    // The path is ours to add; `…/v1` or `…/v1/rerank` would be asked for `…/v1/v1/rerank`.
    if (/\/(v\d+|rerank)\/*$/i.test(values.RERANK_URL)) {
      const path = values.RERANK_API === 'tei' ? '/rerank' : '/v1/rerank';
      problems.push(`RERANK_URL must be the server base URL, without /v1 or /rerank (Cairn calls ${path})`);
    }
  }
  return problems;
}

/**
 * OIDC federation needs the api's public URL (the redirect URI) and a client secret for every
 * provider; a secret for no provider is a typo that would otherwise go unnoticed. Only the api
 * is checked: the other apps see the shared ConfigMap but never the secrets.
 */
function oidcProblems(values: Environment): string[] {
  const providers = values.OIDC_PROVIDERS ?? [];
  const secrets = values.OIDC_CLIENT_SECRETS ?? {};
  const problems: string[] = [];
  if (providers.length > 0 && !values.API_PUBLIC_URL) {
    problems.push('API_PUBLIC_URL is required with OIDC_PROVIDERS (the redirect URI is built from it)');
  }
  for (const provider of providers) {
    if (!secrets[provider.id]) problems.push(`OIDC_CLIENT_SECRETS has no secret for OIDC provider "${provider.id}"`);
  }
  const ids = new Set(providers.map((provider) => provider.id));
  for (const id of Object.keys(secrets)) {
    if (!ids.has(id)) problems.push(`OIDC_CLIENT_SECRETS names "${id}", which OIDC_PROVIDERS does not list`);
  }
  return problems;
}

/**
 * The built-in authorization server names itself by API_PUBLIC_URL (its issuer, which clients
 * compare byte for byte), its tokens' audience by MCP_PUBLIC_URL, and derives its keys from the
 * master key: all three are required with OAUTH_ENABLED, in every app (the gateway advertises
 * the issuer and checks the audience). The issuer must be the bare origin: its metadata is served
 * at the root's /.well-known/, where MCP clients look first.
 */
function oauthProblems(values: Environment): string[] {
  if (!values.OAUTH_ENABLED) return [];
  const problems: string[] = [];
  if (!values.API_PUBLIC_URL) problems.push('API_PUBLIC_URL is required with OAUTH_ENABLED (the issuer)');
  else if (!/^https?:\/\/[^/]+\/*$/.test(values.API_PUBLIC_URL)) {
    problems.push(
      'API_PUBLIC_URL must be an origin without a path with OAUTH_ENABLED (the issuer is served at its root)',
    );
  }
  if (!values.MCP_PUBLIC_URL)
    problems.push('MCP_PUBLIC_URL is required with OAUTH_ENABLED (the resource its tokens are for)');
  if (!values.CAIRN_MASTER_KEY)
    problems.push('CAIRN_MASTER_KEY is required with OAUTH_ENABLED (its keys are derived from it)');
  if (values.OAUTH_GRANT_TTL_SECONDS > values.TOKEN_MAX_TTL_SECONDS) {
    problems.push(
      'OAUTH_GRANT_TTL_SECONDS must be at most TOKEN_MAX_TTL_SECONDS (a grant acts through a session token)',
    );
  }
  return problems;
}

/** Reads the process environment: the single place in the code base that does. */
export function loadConfigFromProcess(app: AppName): CairnConfig {
  return loadConfig(app, process.env);
}
