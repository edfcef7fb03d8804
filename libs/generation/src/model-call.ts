import { Logger } from '@nestjs/common';
import { type JobResult } from '@cairn/jobs';
import { type GenerationRequest, type Generator, ProviderError } from '@cairn/providers';
import { parseJsonAnswer } from './prompting';
import { type z } from 'zod';

/** What a model answered, parsed, or why the caller must use its deterministic fallback. */
export type ModelAnswer<T> =
  | { readonly ok: true; readonly value: T; readonly generatedBy: string }
  | { readonly ok: false; readonly reason: string };

const logger = new Logger('ModelCall');

/**
 * Asks the model for JSON and validates the answer. Falls back (`ok: false`) when there is
 * no model, when the provider refuses the request for good (bad_request, not_found,
 * bad_response) or when the answer does not parse. Failures that another try may cure
 * propagate, so the job runner handles them: errors carrying `backpressureMs` (429/503)
 * pause the queue without spending an attempt, and always propagate; timeouts and unknown
 * errors use up an attempt, so on the job's final attempt they fall back instead, and a
 * summary is never left pending because the model was away.
 */
export async function askModel<T>(
  generator: Generator | null,
  request: GenerationRequest,
  schema: z.ZodType<T>,
  finalAttempt: boolean,
): Promise<ModelAnswer<T>> {
  if (!generator) return { ok: false, reason: 'no chat model configured' };
  let answer: string;
  try {
    answer = await generator.generate({ ...request, json: true });
  } catch (error) {
    if (typeof (error as { backpressureMs?: unknown }).backpressureMs === 'number') throw error;
    const kind = error instanceof ProviderError ? error.kind : undefined;
    const permanent = kind !== undefined && !['rate_limited', 'unavailable', 'timeout'].includes(kind);
    if (!permanent && !finalAttempt) throw error;
    logger.warn({ msg: 'model call failed; using the deterministic fallback', finalAttempt, err: error });
    return { ok: false, reason: permanent ? `provider refused: ${kind}` : 'model unavailable' };
  }
  const value = parseJsonAnswer(answer, schema);
  if (value === null) {
    logger.warn({ msg: 'model answer did not match the expected JSON; using the deterministic fallback' });
    return { ok: false, reason: 'malformed model answer' };
  }
  return { ok: true, value, generatedBy: `${generator.model.provider}:${generator.model.name}` };
}

/** Whether this run of a job is its last: BullMQ counts failed attempts in `attemptsMade`. */
export function isFinalAttempt(attemptsMade: number, attempts: number): boolean {
  return attemptsMade + 1 >= attempts;
}

const isBackpressure = (error: unknown): boolean =>
  typeof (error as { backpressureMs?: unknown } | null)?.backpressureMs === 'number';

/**
 * Runs a job's work; on its final attempt, an error that would fail the job for good (the
 * database or a store step failing again) is recorded on the row instead: `failed`, with a
 * message for the client, and the job completes. So a row never stays pending forever, and
 * since completed jobs leave the queue, its deterministic job id is free: sending the same
 * work again starts over. Backpressure still propagates (it costs no attempt); if recording
 * the failure fails too, the original error does, and the job is kept as failed.
 */
export async function failRowOnFinalAttempt(
  finalAttempt: boolean,
  work: () => Promise<JobResult>,
  markFailed: (message: string) => Promise<void>,
): Promise<JobResult> {
  try {
    return await work();
  } catch (error) {
    if (!finalAttempt || isBackpressure(error)) throw error;
    logger.error({ msg: 'job failed on its final attempt; marking its row failed', err: error });
    await markFailed('processing failed on every attempt; send it again to retry').catch(() => {
      throw error;
    });
    return { status: 'skipped', detail: 'failed on its final attempt' };
  }
}
