import { type DynamicModule, Module } from '@nestjs/common';
import { type CairnConfig, ConfigModule } from '@cairn/config';
import { DatabaseModule } from '@cairn/db';
import { ObservabilityModule } from '@cairn/observability';
import { RedisModule } from '@cairn/redis';
import { ServerModule } from '@cairn/server';

/** Background jobs (BullMQ consumers arrive with the worker issue); serves only health and metrics. */
@Module({})
export class WorkerModule {
  static register(config: CairnConfig): DynamicModule {
    return {
      module: WorkerModule,
      imports: [ConfigModule.forRoot(config), ObservabilityModule, ServerModule, DatabaseModule, RedisModule],
    };
  }
}
