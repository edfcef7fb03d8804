import { type DynamicModule, type Type } from '@nestjs/common';
import { Test, type TestingModuleBuilder } from '@nestjs/testing';
import { type CairnConfig, ConfigModule } from '@cairn/config';
import { DatabaseModule } from '@cairn/db';
import { ObservabilityModule } from '@cairn/observability';

/**
 * A Nest testing module with configuration, observability and the real database pool,
 * plus the capability modules under test. `customise` may override providers.
 */
export async function createDbTestingModule(
  config: CairnConfig,
  imports: (Type | DynamicModule)[],
  customise: (builder: TestingModuleBuilder) => TestingModuleBuilder = (builder) => builder,
) {
  const builder = Test.createTestingModule({
    imports: [ConfigModule.forRoot(config), ObservabilityModule, DatabaseModule, ...imports],
  });
  const moduleRef = await customise(builder).compile();
  await moduleRef.init();
  return moduleRef;
}
