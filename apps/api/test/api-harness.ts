import { randomBytes } from 'node:crypto';
import { type CairnConfig } from '@cairn/config';
import { type NestFastifyApplication } from '@nestjs/platform-fastify';
import {
  createTestDatabase,
  createTestHttpApp,
  TEST_ADMIN_TOKEN,
  TestClient,
  testConfig,
  type TestDatabase,
  testRedisUrl,
} from '@cairn/testing';
import { type Logger } from 'pino';
import { ApiModule } from '../src/api.module';

export interface ApiHarness {
  readonly app: NestFastifyApplication;
  /** The configuration the app was built with (QUEUE_PREFIX is unique per harness). */
  readonly config: CairnConfig;
  readonly database: TestDatabase;
  /** Anonymous client. */
  readonly client: TestClient;
  /** Client holding the platform admin token. */
  readonly admin: TestClient;
  close(): Promise<void>;
}

/** The api app on its own freshly migrated database, for one test file (its logs to `logger`, if given). */
export async function startApi(overrides: Record<string, string> = {}, logger?: Logger): Promise<ApiHarness> {
  const database = await createTestDatabase();
  // A queue prefix of its own keeps this file's jobs away from other test files' workers.
  const config = testConfig(database.url, testRedisUrl(), {
    QUEUE_PREFIX: `t${randomBytes(4).toString('hex')}`,
    ...overrides,
  });
  const app = await createTestHttpApp(ApiModule.register(config), config, 'api', logger);
  const client = new TestClient(app);
  return {
    app,
    config,
    database,
    client,
    admin: client.as(TEST_ADMIN_TOKEN),
    close: async () => {
      await app.close();
      await database.drop();
    },
  };
}
