import 'reflect-metadata';
import { runMain } from '@cairn/server';
import { WorkerModule } from './worker.module';

void runMain({
  app: 'worker',
  module: (config) => WorkerModule.register(config),
  port: (config) => config.http.ports.worker,
  // Only probes and metrics reach the worker; its jobs are handed back on shutdown instead.
  servesTraffic: false,
});
