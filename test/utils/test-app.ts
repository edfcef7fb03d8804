import { type DynamicModule } from '@nestjs/common';
import { type NestFastifyApplication } from '@nestjs/platform-fastify';
import { type CairnConfig } from '@cairn/config';
import { createRootLogger } from '@cairn/observability';
import { createHttpApp } from '@cairn/server';
import { type Logger } from 'pino';

/** The app exactly as `main.ts` builds it, minus `listen`: requests go through `inject`. */
export function createTestHttpApp(
  module: DynamicModule,
  config: CairnConfig,
  name = config.app,
  logger: Logger = createRootLogger(name, config.log.level),
): Promise<NestFastifyApplication> {
  return createHttpApp(module, {
    name,
    config,
    logger,
    openApi: name === 'api' ? { title: 'Cairn API', description: 'test' } : undefined,
  });
}
