import 'reflect-metadata';
import { parseArgs } from 'node:util';
import { NestFactory } from '@nestjs/core';
import { CairnError, exitWhenFlushed } from '@cairn/common';
import { ConfigurationError, loadConfigFromProcess } from '@cairn/config';
import { createRootLogger, PinoLoggerService } from '@cairn/observability';
import { TenantMover } from '@cairn/tenancy';
import { formatMoveReport } from './move-report';
import { TenantsToolModule } from './tenants.module';

/**
 * `npm run tenants:move -- <tenant slug> <cluster>` (in a pod: `node dist/tools/tenants/move.js`):
 * moves the tenant's schema to the cluster (`home` or a name of DATABASE_CLUSTERS) with a bounded
 * write freeze (docs/scaling.md). Needs pg_dump and psql on the PATH. Exit code 1 when the move
 * failed; the tenant then stays where it was.
 */
async function main(): Promise<number> {
  const { positionals } = parseArgs({ allowPositionals: true, strict: true });
  if (positionals.length !== 2) {
    process.stderr.write('usage: npm run tenants:move -- <tenant slug> <cluster>\n');
    return 2;
  }
  const [slug, cluster] = positionals;
  const config = loadConfigFromProcess('migrate');
  const logger = createRootLogger('tenants', config.log.level === 'info' ? 'warn' : config.log.level);
  const app = await NestFactory.createApplicationContext(TenantsToolModule.register(config), {
    logger: new PinoLoggerService(logger),
  });
  try {
    const report = await app.get(TenantMover).move(slug, cluster);
    for (const line of formatMoveReport(report)) process.stdout.write(`${line}\n`);
    return 0;
  } finally {
    await app.close();
  }
}

main()
  .then((code) => exitWhenFlushed(code))
  .catch((error: unknown) => {
    const message =
      error instanceof ConfigurationError || error instanceof CairnError
        ? error.message
        : `move failed: ${(error as Error).message}`;
    process.stderr.write(`cairn tenants:move: ${message}\n`);
    exitWhenFlushed(1);
  });
