import { type DynamicModule, Module } from '@nestjs/common';
import { type CairnConfig, ConfigModule } from '@cairn/config';
import { DatabaseModule } from '@cairn/db';
import { EncryptionModule } from '@cairn/encryption';
import { ObservabilityModule } from '@cairn/observability';

/** Just enough of the application to re-wrap the tenants' data keys. */
@Module({})
export class KeysModule {
  static register(config: CairnConfig): DynamicModule {
    return {
      module: KeysModule,
      imports: [ConfigModule.forRoot(config), ObservabilityModule, DatabaseModule, EncryptionModule],
    };
  }
}
