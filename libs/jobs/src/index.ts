export { createBullConnection } from './bullmq-connection';
export { JobQueue } from './job-queue.service';
export {
  type EmbeddingTargetName,
  type EmbedJob,
  type JobName,
  type JobPayload,
  type JobPayloads,
  QUEUE_NAMES,
  type QueueName,
  type TenantJob,
} from './job-types';
export { JobsModule } from './jobs.module';
