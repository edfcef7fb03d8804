export { createProject, createTenant, createUser, issueToken, type TenantFixture, uniqueSlug } from './factories';
export { TestClient, type TestResponse } from './http-client';
export * from './fake-model-server';
export { createTestHttpApp } from './test-app';
export { createDbTestingModule } from './test-context';
export { startWorkerContext } from './worker-context';
export { runJob } from './run-job';
export { expectCommittedFile, prettyJson, UPDATE_SNAPSHOTS_ENV, updatingSnapshots } from './committed-file';
export { localModelEnv, TEST_MODELS_DIR } from './local-model';
export { TEST_ADMIN_TOKEN, testConfig } from './test-config';
export {
  createTestDatabase,
  prepareTemplateDatabase,
  TEST_ENV,
  type TestDatabase,
  testRedisUrl,
  throughTestPooler,
} from './test-database';
export {
  type ConnectionGuard,
  guardConnections,
  type LoopbackHandler,
  type LoopbackServer,
  startLoopbackServer,
} from './loopback-server';
export {
  Browser as SessionBrowser,
  cookieSet,
  passwordLink,
  PASSWORD,
  personWithPassword,
  SESSION_COOKIE,
  signIn,
  totpCode,
} from './sign-in';
export { type IdpClient, type IdpIssuer, type Idps, startIdps } from './oidc-idp';
export { freePort } from '../../tools/local/util';
export { type PgbouncerInstance, startPgbouncer } from '../../tools/local/pgbouncer';
