import { applyDecorators, Injectable, SetMetadata } from '@nestjs/common';
import { type JobName, type JobPayload, type QueueName } from './job-catalog';

/** What a handler reports; stored as the job's return value and logged. */
export interface JobResult {
  readonly status: 'done' | 'skipped' | 'partial';
  readonly detail?: string;
  readonly counts?: Readonly<Record<string, number>>;
  /** What a caller waiting on the job reads back (e.g. the document a fetch stored). */
  readonly output?: Readonly<Record<string, unknown>>;
}

export interface JobInfo {
  readonly id: string;
  readonly attemptsMade: number;
  readonly queue: QueueName;
  readonly name: string;
}

/** What a `@JobHandler` class implements: its payload type follows from the decorator's queue and name. */
export interface HandlesJob<Q extends QueueName = QueueName, N extends JobName<Q> = JobName<Q>> {
  handle(payload: JobPayload<Q, N>, job: JobInfo): Promise<JobResult>;
}

/** A handler as the registry holds it: the job it handles and how. */
export interface RegisteredJobHandler<
  Q extends QueueName = QueueName,
  N extends JobName<Q> = JobName<Q>,
> extends HandlesJob<Q, N> {
  readonly queue: Q;
  readonly name: N;
}

/** A handler's failure that retrying cannot fix (bad input, a row that will never exist). */
export class PermanentJobError extends Error {}

export const JOB_HANDLER_METADATA = 'cairn:job-handler';

/**
 * Marks a provider as the one handler of job `queue/name` (and makes it injectable). The
 * registry finds every such provider at boot, as the MCP registry finds `@McpTool`s, and the
 * worker refuses to start if a catalogued job has no handler or two. The class must accept the
 * job's payload type: a handler declared for the wrong job does not compile.
 */
export function JobHandler<Q extends QueueName, N extends JobName<Q>>(queue: Q, name: N) {
  const decorate = applyDecorators(Injectable(), SetMetadata(JOB_HANDLER_METADATA, { queue, name }));
  return <T extends abstract new (...args: never[]) => HandlesJob<Q, N>>(target: T): void => {
    decorate(target);
  };
}
