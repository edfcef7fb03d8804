import { randomBytes } from 'node:crypto';
import { type NestFastifyApplication } from '@nestjs/platform-fastify';
import { type CairnConfig, loadConfig } from '@cairn/config';
import { createRootLogger } from '@cairn/observability';
import { createHttpApp } from '@cairn/server';
import { ApiModule } from '@cairn/api-app';
import { databaseSettings } from './environment';
import { benchMasterKey } from './master-key';

export interface BenchApp {
  readonly app: NestFastifyApplication;
  readonly config: CairnConfig;
  /** The platform admin token this app was configured with. */
  readonly adminToken: string;
  readonly client: InjectClient;
}

/**
 * The real api app, built as `apps/api/src/main.ts` builds it (OpenAPI included) but
 * without `listen`: requests go through Fastify's `inject`, so no sockets are involved.
 */
export async function startApiApp(
  databaseUrl: string,
  redisUrl: string,
  /** Further settings, e.g. EMBEDDING_PROVIDER for the evaluation. */
  env: Readonly<Record<string, string>> = {},
): Promise<BenchApp> {
  const adminToken = `bench-admin-${randomBytes(24).toString('hex')}`;
  const config = loadConfig('bench', {
    NODE_ENV: 'production',
    ...databaseSettings(databaseUrl),
    REDIS_URL: redisUrl,
    CAIRN_ADMIN_TOKEN: adminToken,
    CAIRN_MASTER_KEY: benchMasterKey(),
    LOG_LEVEL: 'silent',
    // The evaluation stores and searches through REST with one token: not a rate-limit test.
    RATE_LIMIT_TOKEN_PER_MINUTE: '1000000',
    RATE_LIMIT_TENANT_PER_MINUTE: '10000000',
    BROADCAST_RATE_PER_MINUTE: '1000000',
    // The caller's settings last: `npm run eval -- --provider` chooses the embedder.
    ...env,
  });
  const app = await createHttpApp(ApiModule.register(config), {
    name: 'api',
    config,
    logger: createRootLogger('api', config.log.level),
    openApi: { title: 'Cairn API', description: 'benchmark' },
  });
  return { app, config, adminToken, client: new InjectClient(app) };
}

export interface InjectResponse {
  readonly status: number;
  readonly body: string;
}

/** `app.inject` with an optional bearer token and JSON body; the body comes back unparsed. */
export class InjectClient {
  constructor(private readonly app: NestFastifyApplication) {}

  async send(method: 'GET' | 'POST', url: string, token?: string, body?: unknown): Promise<InjectResponse> {
    const headers: Record<string, string> = {};
    if (token !== undefined) headers.authorization = `Bearer ${token}`;
    if (body !== undefined) headers['content-type'] = 'application/json';
    const response = await this.app.inject({
      method,
      url,
      headers,
      payload: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: response.statusCode, body: response.body };
  }

  /** Sends, insists on `status`, and parses the JSON answer. */
  async expectJson<T>(status: number, method: 'GET' | 'POST', url: string, token?: string, body?: unknown): Promise<T> {
    const response = await this.send(method, url, token, body);
    if (response.status !== status) {
      throw new Error(`${method} ${url}: expected ${status}, got ${response.status} ${response.body.slice(0, 300)}`);
    }
    return JSON.parse(response.body) as T;
  }
}
