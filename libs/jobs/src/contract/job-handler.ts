import { type JobName, type JobPayload, type QueueName } from './job-catalog';

/** What a handler reports; stored as the job's return value and logged. */
export interface JobResult {
  readonly status: 'done' | 'skipped' | 'partial';
  readonly detail?: string;
  readonly counts?: Readonly<Record<string, number>>;
}

export interface JobInfo {
  readonly id: string;
  readonly attemptsMade: number;
  readonly queue: QueueName;
  readonly name: string;
}

export interface JobHandler<Q extends QueueName = QueueName, N extends JobName<Q> = JobName<Q>> {
  readonly queue: Q;
  readonly name: N;
  handle(payload: JobPayload<Q, N>, job: JobInfo): Promise<JobResult>;
}

/** A handler's failure that retrying cannot fix (bad input, a row that will never exist). */
export class PermanentJobError extends Error {}
