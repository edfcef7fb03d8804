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
import { ApiModule } from '../src/api.module';

export interface ApiHarness {
  readonly app: NestFastifyApplication;
  readonly database: TestDatabase;
  /** Anonymous client. */
  readonly client: TestClient;
  /** Client holding the platform admin token. */
  readonly admin: TestClient;
  close(): Promise<void>;
}

/** The api app on its own freshly migrated database, for one test file. */
export async function startApi(overrides: Record<string, string> = {}): Promise<ApiHarness> {
  const database = await createTestDatabase();
  const config = testConfig(database.url, testRedisUrl(), overrides);
  const app = await createTestHttpApp(ApiModule.register(config), config);
  const client = new TestClient(app);
  return {
    app,
    database,
    client,
    admin: client.as(TEST_ADMIN_TOKEN),
    close: async () => {
      await app.close();
      await database.drop();
    },
  };
}
