import { type DynamicModule, Module } from '@nestjs/common';
import { type CairnConfig, ConfigModule } from '@cairn/config';
import { DatabaseModule } from '@cairn/db';
import { ObservabilityModule } from '@cairn/observability';
import { TenancyModule } from '@cairn/tenancy';

/** Just enough of the application to migrate the control schema and every tenant. */
@Module({})
export class MigrateModule {
  static register(config: CairnConfig): DynamicModule {
    return {
      module: MigrateModule,
      imports: [ConfigModule.forRoot(config), ObservabilityModule, DatabaseModule, TenancyModule],
    };
  }
}
