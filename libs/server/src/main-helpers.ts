import { type DynamicModule } from '@nestjs/common';
import { type AppName, ConfigurationError, loadConfigFromProcess, type CairnConfig } from '@cairn/config';
import { createRootLogger } from '@cairn/observability';
import { createHttpApp, type HttpAppOptions } from './create-http-app';
import { runHttpApp } from './run-http-app';

export interface MainOptions {
  readonly app: AppName;
  /** The root module factory receives the validated configuration. */
  readonly module: (config: CairnConfig) => DynamicModule;
  readonly port: (config: CairnConfig) => number;
  readonly openApi?: HttpAppOptions['openApi'];
  /**
   * Whether requests are routed to this app, so SIGTERM drains for SHUTDOWN_DRAIN_MS before
   * closing (default true). The worker serves only probes and metrics: nothing to drain.
   */
  readonly servesTraffic?: boolean;
}

/**
 * The whole of an app's `main.ts`: validate configuration (one line naming the bad
 * variable, then exit 1), build the app, listen, and shut down gracefully on signals.
 */
export async function runMain(options: MainOptions): Promise<void> {
  let config: CairnConfig;
  try {
    config = loadConfigFromProcess(options.app);
  } catch (error) {
    if (error instanceof ConfigurationError) {
      process.stderr.write(`cairn ${options.app}: ${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
  const logger = createRootLogger(options.app, config.log.level);
  try {
    const app = await createHttpApp(options.module(config), {
      name: options.app,
      config,
      logger,
      openApi: options.openApi,
    });
    await runHttpApp(app, {
      port: options.port(config),
      host: config.http.host,
      shutdownTimeoutMs: config.http.shutdownTimeoutMs,
      drainMs: options.servesTraffic === false ? 0 : config.http.shutdownDrainMs,
      logger,
    });
  } catch (error) {
    logger.fatal({ err: error }, 'failed to start');
    logger.flush();
    process.exit(1);
  }
}
