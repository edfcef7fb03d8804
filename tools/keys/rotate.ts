import 'reflect-metadata';
import { parseArgs } from 'node:util';
import { NestFactory } from '@nestjs/core';
import { CairnError } from '@cairn/common';
import { ConfigurationError, loadConfigFromProcess } from '@cairn/config';
import { MasterKeyRotation } from '@cairn/encryption';
import { createRootLogger, PinoLoggerService } from '@cairn/observability';
import { rotateTenantDataKey } from './data-key-rotation';
import { KeysModule } from './keys.module';
import { consoleRotationListener, formatSummary } from './rotation-report';

/**
 * `npm run keys:rotate` (in a pod: `node dist/tools/keys/rotate.js`): re-wraps every tenant's
 * data keys from CAIRN_MASTER_KEY_PREVIOUS to CAIRN_MASTER_KEY, with a line per tenant and a
 * summary. Safe to stop and run again. Exit code 1 if any tenant failed or any key is left
 * under another master key.
 *
 * `npm run keys:rotate -- --data-key <tenant-slug>` instead starts a new data-key version for
 * that one tenant (what `POST /v1/tenants/{slug}/data-key/rotate` does); exit code 1 for an
 * unknown tenant.
 */
async function main(): Promise<number> {
  const { values } = parseArgs({ options: { 'data-key': { type: 'string' } }, strict: true });
  const config = loadConfigFromProcess('keys');
  const logger = createRootLogger('keys', config.log.level === 'info' ? 'warn' : config.log.level);
  const app = await NestFactory.createApplicationContext(KeysModule.register(config), {
    logger: new PinoLoggerService(logger),
  });
  const write = (line: string) => process.stdout.write(`${line}\n`);
  try {
    const slug = values['data-key'];
    if (slug !== undefined) {
      await rotateTenantDataKey(app, slug, write);
      return 0;
    }
    const rotation = app.get(MasterKeyRotation);
    const { current, previous } = rotation.masterKeyIds;
    write(
      previous
        ? `re-wrapping data keys from CAIRN_MASTER_KEY_PREVIOUS (${previous}) to CAIRN_MASTER_KEY (${current})`
        : `CAIRN_MASTER_KEY_PREVIOUS is not set: checking that every data key is wrapped by CAIRN_MASTER_KEY (${current})`,
    );
    const started = performance.now();
    const report = await rotation.run(consoleRotationListener(write));
    for (const line of formatSummary(report, performance.now() - started)) write(line);
    return report.failed > 0 || report.remaining > 0 ? 1 : 0;
  } finally {
    await app.close();
  }
}

main()
  .then((code) => process.exit(code))
  .catch((error: unknown) => {
    // Configuration, argument and not-found errors are the operator's to fix: their own words.
    const message =
      error instanceof ConfigurationError || error instanceof CairnError || isArgumentError(error)
        ? error.message
        : `key rotation failed: ${(error as Error).message}`;
    process.stderr.write(`cairn keys:rotate: ${message}\n`);
    process.exit(1);
  });

function isArgumentError(error: unknown): error is Error {
  return error instanceof Error && 'code' in error && String(error.code).startsWith('ERR_PARSE_ARGS');
}
