import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { ConfigurationError, loadConfigFromProcess } from '@cairn/config';
import { MasterKeyRotation } from '@cairn/encryption';
import { createRootLogger, PinoLoggerService } from '@cairn/observability';
import { KeysModule } from './keys.module';
import { consoleRotationListener, formatSummary } from './rotation-report';

/**
 * `npm run keys:rotate` (in a pod: `node dist/tools/keys/rotate.js`): re-wraps every tenant's
 * data keys from CAIRN_MASTER_KEY_PREVIOUS to CAIRN_MASTER_KEY, with a line per tenant and a
 * summary. Safe to stop and run again. Exit code 1 if any tenant failed or any key is left
 * under another master key.
 */
async function main(): Promise<number> {
  const config = loadConfigFromProcess('keys');
  const logger = createRootLogger('keys', config.log.level === 'info' ? 'warn' : config.log.level);
  const app = await NestFactory.createApplicationContext(KeysModule.register(config), {
    logger: new PinoLoggerService(logger),
  });
  const write = (line: string) => process.stdout.write(`${line}\n`);
  try {
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
    const message =
      error instanceof ConfigurationError ? error.message : `key rotation failed: ${(error as Error).message}`;
    process.stderr.write(`cairn keys:rotate: ${message}\n`);
    process.exit(1);
  });
