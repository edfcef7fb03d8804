import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { exitWhenFlushed } from '@cairn/common';
import { ConfigurationError, loadConfigFromProcess } from '@cairn/config';
import { createRootLogger, PinoLoggerService } from '@cairn/observability';
import { SchemaMigrationService } from '@cairn/tenancy';
import { MigrateModule } from './migrate.module';
import { consoleMigrationListener, formatSummary } from './migration-report';

/**
 * `npm run migrate` (and the Helm pre-install/pre-upgrade Job): control schema, then
 * every tenant, under an advisory lock. Exit code 1 if any tenant failed.
 */
async function main(): Promise<number> {
  const config = loadConfigFromProcess('migrate');
  const logger = createRootLogger('migrate', config.log.level === 'info' ? 'warn' : config.log.level);
  const app = await NestFactory.createApplicationContext(MigrateModule.register(config), {
    logger: new PinoLoggerService(logger),
  });
  const write = (line: string) => process.stdout.write(`${line}\n`);
  try {
    const started = performance.now();
    const report = await app.get(SchemaMigrationService).run(consoleMigrationListener(write));
    write(formatSummary(report, performance.now() - started));
    return report.failed > 0 ? 1 : 0;
  } finally {
    await app.close();
  }
}

main()
  .then((code) => exitWhenFlushed(code))
  .catch((error: unknown) => {
    const message =
      error instanceof ConfigurationError ? error.message : `migration failed: ${(error as Error).message}`;
    process.stderr.write(`cairn migrate: ${message}\n`);
    exitWhenFlushed(1);
  });
