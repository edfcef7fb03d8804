export { createBullConnection } from './bullmq-connection';
export {
  catalogEntries,
  EMBEDDING_TARGETS,
  type EmbeddingTargetName,
  type EmbedJob,
  JOB_CATALOG,
  type JobName,
  JOB_ORIGINS,
  type JobOrigin,
  type JobPayload,
  MAINTENANCE_TASKS,
  type MaintenanceTask,
  QUEUE_NAMES,
  type QueueName,
} from './contract/job-catalog';
export {
  type HandlesJob,
  JobHandler,
  type JobInfo,
  type JobInfoFor,
  type JobResult,
  PermanentJobError,
  type RegisteredJobHandler,
  type TenantJobInfo,
} from './contract/job-handler';
export { JobHandlers, TENANT_GONE } from './job-handlers.registry';
export { JobMetrics } from './job-metrics.service';
export { MAX_PRIORITY } from './bulk-fair-share';
export {
  BULK_JOB_SIZE,
  type EmbeddingJobOptions,
  type EnqueueOptions,
  JobQueue,
  withTimeout,
} from './job-queue.service';
export { JobsHttpModule } from './http/jobs-http.module';
export { JobsModule, JobWorkersModule } from './jobs.module';
export { type FailedJob, QueueAdmin, type QueueOverview } from './queue-admin.service';
