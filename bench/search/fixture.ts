/**
 * The api app for the search benchmark (its own instance: enqueues go to Redis under a unique
 * QUEUE_PREFIX, removed again at the end) and, per corpus size, a tenant with one project and
 * an agent session token, all made through the admin API.
 */
import { randomBytes } from 'node:crypto';
import { type NestFastifyApplication } from '@nestjs/platform-fastify';
import { type SessionPrincipal } from '@cairn/access';
import { TokenVerifier } from '@cairn/auth';
import { type CairnConfig, DEFAULT_MODELS_DIR, loadConfig } from '@cairn/config';
import { type SearchProvider } from '../lib/args';
import { CachedEmbedder, EMBEDDING_CACHE_DIR } from '../lib/embedding-cache';
import { EMBEDDER, type Embedder, EmbeddingProcessor, EmbeddingTargets } from '@cairn/embeddings';
import { JobQueue } from '@cairn/jobs';
import { MemoriesRepository, MemoryRecall, MemoryWriter } from '@cairn/memory';
import { createRootLogger } from '@cairn/observability';
import { HybridSearch } from '@cairn/search';
import { createHttpApp } from '@cairn/server';
import { TenantDb, TenantEntry, type TenantRef, TenantTransaction } from '@cairn/tenancy';
import { ApiModule } from '@cairn/api-app';
import { DataSource } from 'typeorm';
import { InjectClient } from '../lib/app';
import { databaseSettings } from '../lib/environment';
import { benchMasterKey } from '../lib/master-key';

export interface SearchApp {
  readonly app: NestFastifyApplication;
  readonly config: CairnConfig;
  readonly client: InjectClient;
  readonly adminToken: string;
  readonly queuePrefix: string;
  readonly dataSource: DataSource;
  readonly recall: MemoryRecall;
  readonly writer: MemoryWriter;
  readonly memories: MemoriesRepository;
  readonly search: HybridSearch;
  /** How the benchmarks enter a tenant, as the request adapters do. */
  readonly entry: TenantEntry;
  readonly tx: TenantTransaction;
  readonly db: TenantDb;
  readonly embedder: Embedder;
  /** The worker's embedding step, run in-process (in the entered tenant): no BullMQ consumer is started. */
  readonly processor: EmbeddingProcessor;
  close(): Promise<void>;
}

export interface SearchTenant {
  readonly tenant: TenantRef;
  readonly projectSlug: string;
  readonly projectId: string;
  readonly token: string;
  readonly principal: SessionPrincipal;
}

/**
 * The api app as the search and gateway benchmarks drive it, embedding with `provider`: the
 * built-in hash embedder, or the bundled local model (files from `npm run models`), whose
 * corpus vectors are cached between runs (the query vectors of searches are not: their cost is
 * part of what a search costs).
 */
export async function startSearchApp(
  databaseUrl: string,
  redisUrl: string,
  provider: SearchProvider = 'hash',
  /** More settings for this app (e.g. a pool of one connection). */
  overrides: Record<string, string> = {},
): Promise<SearchApp> {
  const adminToken = `bench-admin-${randomBytes(24).toString('hex')}`;
  const queuePrefix = `bench-${randomBytes(6).toString('hex')}`;
  const config = loadConfig('bench', {
    NODE_ENV: 'production',
    ...databaseSettings(databaseUrl),
    REDIS_URL: redisUrl,
    CAIRN_ADMIN_TOKEN: adminToken,
    CAIRN_MASTER_KEY: benchMasterKey(),
    LOG_LEVEL: 'silent',
    // Searches and stores go through REST with one token: measured, not rate-limited.
    RATE_LIMIT_TOKEN_PER_MINUTE: '1000000',
    RATE_LIMIT_TENANT_PER_MINUTE: '10000000',
    QUEUE_PREFIX: queuePrefix,
    EMBEDDING_PROVIDER: provider,
    EMBEDDING_MODELS_DIR: DEFAULT_MODELS_DIR,
    ...overrides,
  });
  const app = await createHttpApp(ApiModule.register(config), {
    name: 'api',
    config,
    logger: createRootLogger('api', config.log.level),
    openApi: { title: 'Cairn API', description: 'benchmark' },
  });
  const get = <T>(token: abstract new (...args: never[]) => T): T => app.get(token, { strict: false });
  const entry = get(TenantEntry);
  const tx = get(TenantTransaction);
  const model = app.get<symbol, Embedder>(EMBEDDER, { strict: false });
  const embedder = model.model.builtIn ? model : new CachedEmbedder(model, EMBEDDING_CACHE_DIR);
  const processor = new EmbeddingProcessor(embedder, config, get(EmbeddingTargets), tx);
  const jobs = get(JobQueue);
  return {
    app,
    config,
    client: new InjectClient(app),
    adminToken,
    queuePrefix,
    dataSource: get(DataSource),
    recall: get(MemoryRecall),
    writer: get(MemoryWriter),
    memories: get(MemoriesRepository),
    search: get(HybridSearch),
    entry,
    tx,
    db: get(TenantDb),
    embedder,
    processor,
    close: async () => {
      // The embedding jobs the store phase enqueued (nobody consumes them) and any fold left: remove them.
      for (const queue of ['embeddings', 'maintenance'] as const)
        await jobs
          .queue(queue)
          .obliterate({ force: true })
          .catch(() => undefined);
      await app.close();
    },
  };
}

interface Issued {
  readonly id: string;
  readonly token: string;
}

export async function createSearchTenant(
  bench: SearchApp,
  label: string,
  /** MCP toolsets of the token (default: the default toolsets). */
  toolsets?: readonly string[],
): Promise<SearchTenant> {
  const { client, adminToken } = bench;
  const slug = `bench-search-${label}-${randomBytes(3).toString('hex')}`;
  const tenant = await client.expectJson<TenantRef>(201, 'POST', '/v1/tenants', adminToken, {
    slug,
    name: `Search benchmark ${label}`,
  });
  const project = await client.expectJson<{ id: string; slug: string }>(
    201,
    'POST',
    `/v1/tenants/${slug}/projects`,
    adminToken,
    { slug: 'memories', name: 'Benchmark memories' },
  );
  const user = await client.expectJson<{ id: string }>(201, 'POST', `/v1/tenants/${slug}/users`, adminToken, {
    email: `agent@${slug}.example.com`,
    name: 'Bench Agent',
    role: 'member',
  });
  const issued = await client.expectJson<Issued>(201, 'POST', `/v1/tenants/${slug}/tokens`, adminToken, {
    userId: user.id,
    agentId: 'bench:search',
    role: 'agent',
    projects: [project.slug],
    ...(toolsets ? { toolsets } : {}),
  });
  const principal = await bench.app.get(TokenVerifier, { strict: false }).authenticate(`Bearer ${issued.token}`);
  if (principal.kind !== 'session') throw new Error('the benchmark token did not authenticate as a session');
  return {
    tenant: { id: tenant.id, slug: tenant.slug, schema: tenant.schema },
    projectSlug: project.slug,
    projectId: project.id,
    token: issued.token,
    principal,
  };
}

/** Deletes the tenant through the API (its schema is dropped). */
export async function dropSearchTenant(bench: SearchApp, tenant: SearchTenant): Promise<void> {
  const response = await bench.app.inject({
    method: 'DELETE',
    url: `/v1/tenants/${tenant.tenant.slug}`,
    headers: { authorization: `Bearer ${bench.adminToken}` },
  });
  if (response.statusCode >= 300) throw new Error(`DELETE tenant: ${response.statusCode} ${response.body}`);
}
