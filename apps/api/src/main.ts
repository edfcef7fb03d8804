import 'reflect-metadata';
import { runMain } from '@cairn/server';
import { ApiModule } from './api.module';

void runMain({
  app: 'api',
  module: (config) => ApiModule.register(config),
  port: (config) => config.http.ports.api,
  openApi: {
    title: 'Cairn API',
    description: 'Platform and tenant administration, and the memory REST API for hooks and CLIs.',
  },
});
