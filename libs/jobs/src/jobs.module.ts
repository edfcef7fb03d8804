import { Global, Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { JobHandlers } from './job-handlers.registry';
import { JobMetrics } from './job-metrics.service';
import { JobQueue } from './job-queue.service';
import { JobWorkers } from './job-workers.service';

/** Enqueueing, handler registration and queue metrics: every app. */
@Global()
@Module({
  imports: [DiscoveryModule],
  providers: [JobQueue, JobHandlers, JobMetrics],
  exports: [JobQueue, JobHandlers, JobMetrics],
})
export class JobsModule {}

/** Consuming: the worker app only. */
@Module({ providers: [JobWorkers] })
export class JobWorkersModule {}
