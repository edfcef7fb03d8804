import { type NestFastifyApplication } from '@nestjs/platform-fastify';
import { ReadinessRegistry } from '@cairn/observability';
import { type Logger as PinoLogger } from 'pino';

export interface RunOptions {
  readonly port: number;
  readonly host: string;
  readonly shutdownTimeoutMs: number;
  readonly logger: PinoLogger;
}

/**
 * Listens, then on SIGTERM/SIGINT: reports not-ready at once, stops accepting, lets
 * in-flight requests finish and closes pools. If that takes longer than the deadline
 * the process exits anyway, so a stuck dependency never blocks a rollout.
 */
export async function runHttpApp(app: NestFastifyApplication, options: RunOptions): Promise<void> {
  const { logger } = options;
  await app.listen(options.port, options.host);
  logger.info({ port: options.port, host: options.host }, 'listening');

  let stopping = false;
  const stop = (signal: NodeJS.Signals): void => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal, deadlineMs: options.shutdownTimeoutMs }, 'shutting down');
    app.get(ReadinessRegistry).markShuttingDown();
    const deadline = setTimeout(() => {
      logger.error({ deadlineMs: options.shutdownTimeoutMs }, 'shutdown deadline passed; exiting');
      logger.flush();
      process.exit(1);
    }, options.shutdownTimeoutMs);
    deadline.unref();
    app
      .close()
      .then(() => {
        clearTimeout(deadline);
        logger.info('stopped');
        logger.flush();
        process.exit(0);
      })
      .catch((error: unknown) => {
        logger.error({ err: error }, 'error during shutdown');
        logger.flush();
        process.exit(1);
      });
  };
  // `on`, not `once`: a second signal (process group plus supervisor) must not kill mid-drain.
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}
