import { type DynamicModule, Global, Module } from '@nestjs/common';
import { CAIRN_CONFIG, type CairnConfig } from './cairn-config';

/** Makes the boot-time configuration object injectable everywhere as `CAIRN_CONFIG`. */
@Global()
@Module({})
export class ConfigModule {
  static forRoot(config: CairnConfig): DynamicModule {
    return {
      module: ConfigModule,
      providers: [{ provide: CAIRN_CONFIG, useValue: config }],
      exports: [CAIRN_CONFIG],
    };
  }
}
