import { type NestFastifyApplication } from '@nestjs/platform-fastify';
import { ReadinessRegistry } from '@cairn/observability';
import { type Logger as PinoLogger } from 'pino';

export interface RunOptions {
  readonly port: number;
  readonly host: string;
  /** How long the close phase (after the drain) may take before the process exits 1. */
  readonly shutdownTimeoutMs: number;
  /** How long to keep serving, not ready, between the signal and closing the listener. */
  readonly drainMs: number;
  readonly logger: PinoLogger;
}

/**
 * Listens, then on SIGTERM/SIGINT: reports not-ready at once and keeps serving for `drainMs`
 * (in-flight requests and newly arriving ones alike), because load balancers and Kubernetes
 * endpoints only stop routing here once their next health check or endpoint update says so;
 * closing the listener at once would refuse requests already on their way. Then it stops
 * accepting, lets in-flight requests finish and closes pools. If that close takes longer than
 * the deadline the process exits anyway, so a stuck dependency never blocks a rollout.
 */
export async function runHttpApp(app: NestFastifyApplication, options: RunOptions): Promise<void> {
  const { logger } = options;
  await app.listen(options.port, options.host);
  logger.info({ port: options.port, host: options.host }, 'listening');

  let stopping = false;
  const close = (): void => {
    logger.info({ deadlineMs: options.shutdownTimeoutMs }, 'closing the listener');
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
  const stop = (signal: NodeJS.Signals): void => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal, drainMs: options.drainMs, deadlineMs: options.shutdownTimeoutMs }, 'shutting down');
    app.get(ReadinessRegistry).markShuttingDown();
    // Not unref'd: the drain is what keeps the process up when nothing else would.
    if (options.drainMs > 0) setTimeout(close, options.drainMs);
    else close();
  };
  // `on`, not `once`: a second signal (process group plus supervisor) must not kill mid-drain.
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}
