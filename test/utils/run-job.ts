import { randomUUID } from 'node:crypto';
import { type INestApplicationContext } from '@nestjs/common';
import { JobHandlers, type JobName, type JobPayload, type JobResult, type QueueName } from '@cairn/jobs';

/**
 * Runs one job as the worker runs it, without a queue: through its registered handler, so a
 * tenant's job enters the live tenant first (or is skipped, the tenant being gone).
 */
export function runJob<Q extends QueueName, N extends JobName<Q>>(
  app: INestApplicationContext,
  queue: Q,
  name: N,
  payload: JobPayload<Q, N>,
  attemptsMade = 0,
): Promise<JobResult> {
  const handler = app.get(JobHandlers, { strict: false }).get(queue, name);
  if (!handler) throw new Error(`no handler for job ${queue}/${name}`);
  return handler.handle(payload as never, { id: randomUUID(), attemptsMade, queue, name });
}
