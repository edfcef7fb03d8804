import { applyDecorators, Injectable, SetMetadata } from '@nestjs/common';
import { type LiveTenant } from '@cairn/tenancy';
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

/**
 * A job whose payload carries a `tenantId` runs in that tenant: the registry found it live and
 * entered its context before calling the handler (a deleted tenant's job is skipped unhandled).
 */
export interface TenantJobInfo extends JobInfo {
  readonly tenant: LiveTenant;
}

/** What a handler of job `Q/N` is told besides its payload. */
export type JobInfoFor<Q extends QueueName, N extends JobName<Q>> =
  JobPayload<Q, N> extends { tenantId: string } ? TenantJobInfo : JobInfo;

/**
 * What a `@JobHandler` class implements: its payload type follows from the decorator's queue and
 * name. (A property, not a method, so its parameters are checked strictly: a handler of a job
 * without a tenant that asks to be told one does not compile.)
 */
export interface HandlesJob<Q extends QueueName = QueueName, N extends JobName<Q> = JobName<Q>> {
  readonly handle: (payload: JobPayload<Q, N>, job: JobInfoFor<Q, N>) => Promise<JobResult>;
}

/** A handler as the registry holds it (for a tenant's job, already wrapped in the tenant's entry). */
export interface RegisteredJobHandler<Q extends QueueName = QueueName, N extends JobName<Q> = JobName<Q>> {
  readonly queue: Q;
  readonly name: N;
  handle(payload: JobPayload<Q, N>, job: JobInfo): Promise<JobResult>;
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
