import { type DynamicModule } from '@nestjs/common';
import { Test, type TestingModule } from '@nestjs/testing';

/**
 * The worker app's module graph without its HTTP server: BullMQ consumers start on init
 * and stop on close, exactly as in `apps/worker`. Tests pass `WorkerModule.register(config)`.
 */
export async function startWorkerContext(workerModule: DynamicModule): Promise<TestingModule> {
  const moduleRef = await Test.createTestingModule({ imports: [workerModule] }).compile();
  moduleRef.enableShutdownHooks();
  await moduleRef.init();
  return moduleRef;
}
