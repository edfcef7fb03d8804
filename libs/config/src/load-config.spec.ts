import { resolve } from 'node:path';
import { randomBytes } from 'node:crypto';
import { ConfigurationError, loadConfig } from './load-config';

const masterKey = randomBytes(32).toString('base64');
const adminToken = 'a'.repeat(20) + randomBytes(16).toString('hex');
const valid = {
  DATABASE_URL: 'postgresql://cairn:s3cret-password@db:5432/cairn',
  REDIS_URL: 'redis://redis:6379',
  CAIRN_ADMIN_TOKEN: adminToken,
  CAIRN_MASTER_KEY: masterKey,
};

function problemsOf(env: Record<string, string | undefined>, app: Parameters<typeof loadConfig>[0] = 'api'): string {
  try {
    loadConfig(app, env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigurationError);
    return (error as Error).message;
  }
  throw new Error('expected a ConfigurationError');
}

describe('loadConfig', () => {
  it('builds one frozen object with the documented defaults', () => {
    const config = loadConfig('api', valid);
    expect(config.http.ports).toEqual({ api: 8080, mcpGateway: 8081, worker: 8082 });
    expect(config.log.level).toBe('info');
    expect(config.database.poolMax).toBe(10);
    expect(config.secrets.masterKey).toHaveLength(32);
    expect(Object.isFrozen(config)).toBe(true);
  });

  it('reads further PostgreSQL clusters for tenant placement, and refuses bad ones by name', () => {
    expect(loadConfig('api', valid).database).toMatchObject({ clusters: [], placementCluster: undefined });
    const placed = loadConfig('api', {
      ...valid,
      DATABASE_CLUSTERS: 'east=postgresql://cairn:pw@east:5432/cairn, eu-2=postgres://eu2/cairn',
      DATABASE_PLACEMENT_CLUSTER: 'eu-2',
    }).database;
    expect(placed.clusters).toEqual([
      { name: 'east', url: 'postgresql://cairn:pw@east:5432/cairn' },
      { name: 'eu-2', url: 'postgres://eu2/cairn' },
    ]);
    expect(placed.placementCluster).toBe('eu-2');
    expect(problemsOf({ ...valid, DATABASE_CLUSTERS: 'home=postgresql://x/cairn' })).toMatch(
      /DATABASE_CLUSTERS.*"home" is not a cluster name/,
    );
    expect(problemsOf({ ...valid, DATABASE_CLUSTERS: 'east=mysql://x/cairn' })).toMatch(
      /DATABASE_CLUSTERS.*cluster "east" needs a postgres/,
    );
    expect(problemsOf({ ...valid, DATABASE_CLUSTERS: 'a=postgresql://x/a,a=postgresql://y/a' })).toMatch(
      /cluster "a" is named twice/,
    );
    expect(problemsOf({ ...valid, DATABASE_PLACEMENT_CLUSTER: 'west' })).toMatch(
      /DATABASE_PLACEMENT_CLUSTER "west" is neither home nor a cluster of DATABASE_CLUSTERS/,
    );
  });

  describe('behind a pooler', () => {
    const direct = 'postgresql://cairn:pw@postgres-direct:5432/cairn';

    it('defaults to a direct connection: named statements on, sessions on DATABASE_URL', () => {
      expect(loadConfig('api', valid).database).toMatchObject({
        pooler: 'none',
        directUrl: undefined,
        sessionUrl: valid.DATABASE_URL,
        preparedStatements: true,
      });
    });

    it('with DATABASE_POOLER=transaction: named statements off, sessions only on DATABASE_DIRECT_URL', () => {
      expect(loadConfig('api', { ...valid, DATABASE_POOLER: 'transaction' }).database).toMatchObject({
        pooler: 'transaction',
        sessionUrl: undefined,
        preparedStatements: false,
      });
      const withDirect = loadConfig('api', { ...valid, DATABASE_POOLER: 'transaction', DATABASE_DIRECT_URL: direct });
      expect(withDirect.database).toMatchObject({ directUrl: direct, sessionUrl: direct, preparedStatements: false });
    });

    it('keeps named statements when told (PgBouncer >= 1.21 with max_prepared_statements), or drops them', () => {
      const on = loadConfig('api', { ...valid, DATABASE_POOLER: 'transaction', DATABASE_PREPARED_STATEMENTS: 'on' });
      expect(on.database.preparedStatements).toBe(true);
      expect(loadConfig('api', { ...valid, DATABASE_PREPARED_STATEMENTS: 'off' }).database.preparedStatements).toBe(
        false,
      );
    });

    it('rejects values it does not know', () => {
      expect(problemsOf({ ...valid, DATABASE_POOLER: 'session' })).toContain(
        'DATABASE_POOLER must be none or transaction',
      );
      expect(problemsOf({ ...valid, DATABASE_PREPARED_STATEMENTS: 'yes' })).toContain(
        'DATABASE_PREPARED_STATEMENTS must be on or off',
      );
      expect(problemsOf({ ...valid, DATABASE_DIRECT_URL: 'mysql://db' })).toContain(
        'DATABASE_DIRECT_URL must be a postgres',
      );
    });
  });

  it('names a missing variable', () => {
    expect(problemsOf({ ...valid, DATABASE_URL: undefined })).toBe('Invalid configuration: DATABASE_URL is required');
  });

  it('treats empty values as missing', () => {
    expect(problemsOf({ ...valid, REDIS_URL: '  ' })).toContain('REDIS_URL is required');
  });

  it.each([
    ['CAIRN_MASTER_KEY', 'not-base64!'],
    ['CAIRN_MASTER_KEY', randomBytes(16).toString('base64')],
    ['CAIRN_MASTER_KEY', randomBytes(31).toString('hex')],
    ['CAIRN_MASTER_KEY', randomBytes(48).toString('base64')],
    ['CAIRN_MASTER_KEY_PREVIOUS', randomBytes(16).toString('hex')],
    ['CAIRN_ADMIN_TOKEN', 'short'],
    ['DATABASE_URL', 'mysql://x'],
    ['REDIS_URL', 'http://redis'],
    ['API_PORT', '70000'],
    ['API_PORT', 'eighty'],
    ['LOG_LEVEL', 'loud'],
  ])('names malformed %s without printing its value', (name, value) => {
    const message = problemsOf({ ...valid, [name]: value });
    expect(message).toContain(name);
    expect(message).not.toContain(value);
    expect(message).not.toContain(masterKey);
    expect(message).not.toContain(adminToken);
    expect(message).not.toContain('s3cret-password');
  });

  it('requires only what each app uses', () => {
    expect(() => loadConfig('worker', { ...valid, CAIRN_ADMIN_TOKEN: undefined })).not.toThrow();
    expect(() => loadConfig('migrate', { DATABASE_URL: valid.DATABASE_URL })).not.toThrow();
    expect(problemsOf({ ...valid, CAIRN_ADMIN_TOKEN: undefined }, 'api')).toContain('CAIRN_ADMIN_TOKEN is required');
  });

  it('requires what a chosen model provider needs, naming each variable', () => {
    const ollama = problemsOf({ ...valid, EMBEDDING_PROVIDER: 'ollama' });
    expect(ollama).toContain('EMBEDDING_MODEL is required with EMBEDDING_PROVIDER=ollama');
    expect(ollama).toContain('EMBEDDING_DIMENSIONS is required');
    expect(problemsOf({ ...valid, CHAT_PROVIDER: 'openai', CHAT_MODEL: 'gpt-x' })).toContain('OPENAI_BASE_URL');
    const secret = 'sk-very-secret-value';
    const message = problemsOf({
      ...valid,
      EMBEDDING_PROVIDER: 'openai',
      OPENAI_API_KEY: secret,
      OLLAMA_URL: 'ftp://x',
    });
    expect(message).toContain('OLLAMA_URL');
    expect(message).not.toContain(secret);
    const config = loadConfig('worker', {
      ...valid,
      EMBEDDING_PROVIDER: 'ollama',
      EMBEDDING_MODEL: 'nomic-embed-text',
      EMBEDDING_DIMENSIONS: '768',
      OLLAMA_URL: 'http://ollama:11434/',
    });
    expect(config.embeddings).toMatchObject({ provider: 'ollama', model: 'nomic-embed-text', dimensions: 768 });
    expect(config.providers.ollama.url).toBe('http://ollama:11434');
  });

  it('embeds short writes inline by default, within bounds the settings change or refuse', () => {
    expect(loadConfig('api', valid).embeddings.inline).toEqual({
      enabled: true,
      maxChars: 2_000,
      budgetMs: 150,
      maxInFlight: 4,
    });
    const tuned = loadConfig('api', {
      ...valid,
      EMBEDDING_INLINE: 'false',
      EMBEDDING_INLINE_MAX_CHARS: '500',
      EMBEDDING_INLINE_BUDGET_MS: '40',
      EMBEDDING_INLINE_MAX_IN_FLIGHT: '2',
    });
    expect(tuned.embeddings.inline).toEqual({ enabled: false, maxChars: 500, budgetMs: 40, maxInFlight: 2 });
    // The local model infers on a thread of its own: the same default as the built-in embedder.
    expect(loadConfig('api', { ...valid, EMBEDDING_PROVIDER: 'local' }).embeddings.inline.maxInFlight).toBe(4);
    expect(problemsOf({ ...valid, EMBEDDING_INLINE: 'off' })).toContain('EMBEDDING_INLINE');
    expect(problemsOf({ ...valid, EMBEDDING_INLINE_BUDGET_MS: '0' })).toContain('EMBEDDING_INLINE_BUDGET_MS');
    expect(problemsOf({ ...valid, EMBEDDING_INLINE_MAX_IN_FLIGHT: '65' })).toContain('EMBEDDING_INLINE_MAX_IN_FLIGHT');
  });

  it('orders the embedding queue fairly unless told not to, and refuses anything but true or false', () => {
    expect(loadConfig('api', valid).queues).toEqual({ prefix: 'cairn', embeddingFairness: true });
    expect(loadConfig('worker', { ...valid, EMBEDDING_QUEUE_FAIRNESS: 'false' }).queues.embeddingFairness).toBe(false);
    expect(problemsOf({ ...valid, EMBEDDING_QUEUE_FAIRNESS: 'yes' })).toContain('EMBEDDING_QUEUE_FAIRNESS');
  });

  it('runs the local model with no model settings, and refuses another name or size for it', () => {
    const config = loadConfig('worker', { ...valid, EMBEDDING_PROVIDER: 'local', EMBEDDING_THREADS: '2' });
    expect(config.embeddings).toMatchObject({ provider: 'local', threads: 2, modelsDir: resolve('.cairn/models') });
    expect(config.embeddings.model).toBeUndefined();
    expect(problemsOf({ ...valid, EMBEDDING_PROVIDER: 'local', EMBEDDING_MODEL: 'bge-m3' })).toContain(
      'EMBEDDING_MODEL must be one of all-minilm-l6-v2, bge-small-en-v1.5 (or unset) with EMBEDDING_PROVIDER=local',
    );
    const wrongSize = problemsOf({
      ...valid,
      EMBEDDING_PROVIDER: 'local',
      EMBEDDING_MODEL: 'all-minilm-l6-v2',
      EMBEDDING_DIMENSIONS: '1024',
    });
    expect(wrongSize).toContain('EMBEDDING_DIMENSIONS must be 384 (or unset) with EMBEDDING_PROVIDER=local');
  });

  it('selects the other local model of the catalogue by EMBEDDING_MODEL', () => {
    const config = loadConfig('worker', {
      ...valid,
      EMBEDDING_PROVIDER: 'local',
      EMBEDDING_MODEL: 'bge-small-en-v1.5',
      EMBEDDING_DIMENSIONS: '384',
    });
    expect(config.embeddings).toMatchObject({ provider: 'local', model: 'bge-small-en-v1.5', dimensions: 384 });
  });

  it('leaves reranking off unless RERANK_URL is set, and needs a model and a base URL with it', () => {
    expect(loadConfig('api', valid).rerank).toEqual({
      url: undefined,
      api: 'cohere',
      model: undefined,
      apiKey: undefined,
      candidates: 100,
      batchSize: 32,
      timeoutMs: 800,
    });
    const secret = 'rk-very-secret-value';
    const on = loadConfig('api', {
      ...valid,
      RERANK_URL: 'http://reranker:8080/',
      RERANK_MODEL: 'bge-reranker-v2-m3',
      RERANK_API_KEY: secret,
      RERANK_API: 'tei',
      RERANK_CANDIDATES: '500',
      RERANK_BATCH_SIZE: '16',
      RERANK_TIMEOUT_MS: '300',
    });
    expect(on.rerank).toEqual({
      url: 'http://reranker:8080',
      api: 'tei',
      model: 'bge-reranker-v2-m3',
      apiKey: secret,
      candidates: 500,
      batchSize: 16,
      timeoutMs: 300,
    });
    expect(problemsOf({ ...valid, RERANK_URL: 'http://reranker:8080' })).toContain(
      'RERANK_MODEL is required with RERANK_URL',
    );
    for (const url of ['http://reranker:8080/v1', 'http://reranker:8080/v1/rerank/']) {
      expect(problemsOf({ ...valid, RERANK_URL: url, RERANK_MODEL: 'm' })).toContain('without /v1 or /rerank');
    }
    expect(
      problemsOf({ ...valid, RERANK_URL: 'http://tei:80/rerank', RERANK_MODEL: 'm', RERANK_API: 'tei' }),
    ).toContain('Cairn calls /rerank');
    const bad = problemsOf({
      ...valid,
      RERANK_URL: 'ftp://x',
      RERANK_API_KEY: secret,
      RERANK_CANDIDATES: '501',
      RERANK_BATCH_SIZE: '0',
      RERANK_API: 'ollama',
    });
    expect(bad).toContain('RERANK_URL');
    expect(bad).toContain('RERANK_CANDIDATES');
    expect(bad).toContain('RERANK_BATCH_SIZE');
    expect(bad).toContain('RERANK_API');
    expect(bad).not.toContain(secret);
  });

  it('leaves the query rewrite off unless QUERY_REWRITE=on, and needs a chat model with it', () => {
    expect(loadConfig('api', valid).queryRewrite).toEqual({ enabled: false, timeoutMs: 1_500 });
    const chat = { CHAT_PROVIDER: 'ollama', CHAT_MODEL: 'llama3.2' };
    expect(
      loadConfig('api', { ...valid, ...chat, QUERY_REWRITE: 'on', QUERY_REWRITE_TIMEOUT_MS: '400' }).queryRewrite,
    ).toEqual({ enabled: true, timeoutMs: 400 });
    expect(loadConfig('api', { ...valid, ...chat }).queryRewrite.enabled).toBe(false);
    expect(problemsOf({ ...valid, QUERY_REWRITE: 'on' })).toContain(
      'QUERY_REWRITE=on needs a chat model (CHAT_PROVIDER and CHAT_MODEL)',
    );
    const bad = problemsOf({ ...valid, ...chat, QUERY_REWRITE: 'true', QUERY_REWRITE_TIMEOUT_MS: '0' });
    expect(bad).toContain('QUERY_REWRITE');
    expect(bad).toContain('QUERY_REWRITE_TIMEOUT_MS');
  });

  it('checks the shipped files in warn mode by default, against dist/integrity.json in the working directory', () => {
    expect(loadConfig('worker', valid).integrity).toEqual({
      mode: 'warn',
      manifestPath: resolve('dist/integrity.json'),
      baseDir: resolve('.'),
    });
    const strict = loadConfig('worker', {
      ...valid,
      CAIRN_INTEGRITY: 'strict',
      CAIRN_INTEGRITY_MANIFEST: '/srv/m.json',
    });
    expect(strict.integrity).toEqual(expect.objectContaining({ mode: 'strict', manifestPath: '/srv/m.json' }));
    expect(problemsOf({ ...valid, CAIRN_INTEGRITY: 'on' })).toContain('CAIRN_INTEGRITY');
  });

  it('reads the master keys as base64 or hex, and the previous one only while rotating', () => {
    const key = randomBytes(32);
    const previous = randomBytes(32);
    expect(loadConfig('worker', { ...valid, CAIRN_MASTER_KEY: key.toString('hex') }).secrets).toMatchObject({
      masterKey: key,
      previousMasterKey: undefined,
    });
    const rotating = loadConfig('worker', {
      ...valid,
      CAIRN_MASTER_KEY: key.toString('base64'),
      CAIRN_MASTER_KEY_PREVIOUS: previous.toString('hex').toUpperCase(),
    });
    expect(rotating.secrets.masterKey?.equals(key)).toBe(true);
    expect(rotating.secrets.previousMasterKey?.equals(previous)).toBe(true);
    // Unpadded base64 is the same 32 bytes.
    const unpadded = key.toString('base64').replace(/=$/, '');
    expect(loadConfig('worker', { ...valid, CAIRN_MASTER_KEY: unpadded }).secrets.masterKey?.equals(key)).toBe(true);
  });

  it('refuses a previous master key equal to the current one, however it is spelled', () => {
    const hex = Buffer.from(masterKey, 'base64').toString('hex');
    const same = problemsOf({ ...valid, CAIRN_MASTER_KEY_PREVIOUS: hex });
    expect(same).toBe(
      'Invalid configuration: CAIRN_MASTER_KEY_PREVIOUS must differ from CAIRN_MASTER_KEY (it is the key being rotated away from)',
    );
    // The migration reads neither key, so a rotation's environment does not stop it.
    const previous = randomBytes(32).toString('base64');
    expect(() =>
      loadConfig('migrate', { DATABASE_URL: valid.DATABASE_URL, CAIRN_MASTER_KEY_PREVIOUS: previous }),
    ).not.toThrow();
  });

  it('requires the database and the master key for npm run keys:rotate, nothing else', () => {
    expect(() => loadConfig('keys', { DATABASE_URL: valid.DATABASE_URL, CAIRN_MASTER_KEY: masterKey })).not.toThrow();
    expect(problemsOf({ DATABASE_URL: valid.DATABASE_URL }, 'keys')).toBe(
      'Invalid configuration: CAIRN_MASTER_KEY is required',
    );
  });

  it('refuses a default token lifetime above the maximum', () => {
    expect(problemsOf({ ...valid, TOKEN_DEFAULT_TTL_SECONDS: '1000', TOKEN_MAX_TTL_SECONDS: '100' })).toContain(
      'TOKEN_DEFAULT_TTL_SECONDS',
    );
  });
  it('reads the sign-in settings, refusing a flag that is neither true nor false', () => {
    expect(loadConfig('api', valid).accounts).toEqual({
      localLoginEnabled: true,
      cookieSecure: true,
      idleTimeoutSeconds: 1800,
      absoluteTimeoutSeconds: 43_200,
      accountAttempts: 5,
      ipAttempts: 30,
      attemptWindowSeconds: 900,
      oidc: { publicUrl: undefined, providers: [] },
    });
    expect(loadConfig('api', { ...valid, SESSION_COOKIE_SECURE: 'false' }).accounts.cookieSecure).toBe(false);
    expect(problemsOf({ ...valid, LOCAL_LOGIN_ENABLED: 'yes' })).toContain('LOCAL_LOGIN_ENABLED');
    expect(
      problemsOf({ ...valid, SESSION_IDLE_TIMEOUT_SECONDS: '7200', SESSION_ABSOLUTE_TIMEOUT_SECONDS: '3600' }),
    ).toContain('SESSION_IDLE_TIMEOUT_SECONDS must not exceed SESSION_ABSOLUTE_TIMEOUT_SECONDS');
  });

  it('needs the issuer, the resource and the master key for the OAuth authorization server, in every app', () => {
    const oauth = {
      ...valid,
      OAUTH_ENABLED: 'true',
      API_PUBLIC_URL: 'https://cairn.example.com',
      MCP_PUBLIC_URL: 'https://mcp.example.com/',
    };
    for (const app of ['api', 'mcp-gateway'] as const) {
      const config = loadConfig(app, oauth);
      expect(config.oauth).toMatchObject({
        enabled: true,
        issuer: 'https://cairn.example.com',
        resource: 'https://mcp.example.com/mcp',
        scope: 'mcp',
        accessTokenTtlSeconds: 600,
        dynamicRegistration: true,
        clientMetadataDocuments: true,
      });
    }
    expect(loadConfig('api', valid).oauth).toMatchObject({ enabled: false, issuer: undefined, resource: undefined });
    expect(problemsOf({ ...oauth, API_PUBLIC_URL: undefined })).toContain(
      'API_PUBLIC_URL is required with OAUTH_ENABLED',
    );
    expect(problemsOf({ ...oauth, API_PUBLIC_URL: 'https://cairn.example.com/api' })).toContain(
      'must be an origin without a path',
    );
    expect(problemsOf({ ...oauth, MCP_PUBLIC_URL: undefined }, 'mcp-gateway')).toContain('MCP_PUBLIC_URL is required');
    expect(problemsOf({ ...oauth, CAIRN_MASTER_KEY: undefined }, 'mcp-gateway')).toContain(
      'CAIRN_MASTER_KEY is required',
    );
    expect(problemsOf({ ...oauth, OAUTH_GRANT_TTL_SECONDS: String(200 * 86_400) })).toContain(
      'OAUTH_GRANT_TTL_SECONDS must be at most TOKEN_MAX_TTL_SECONDS',
    );
    expect(problemsOf({ ...oauth, OAUTH_ENABLED: 'yes' })).toContain('OAUTH_ENABLED');
  });
});
