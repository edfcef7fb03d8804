/**
 * A model provider's failure, classified so callers can react: the worker pauses its queue
 * for `rate_limited` and `unavailable` (the error carries `backpressureMs`, which the job
 * runner reads), retries `timeout` with backoff, and gives up on `bad_request`/`not_found`.
 * `bad_response` means the provider answered something we cannot use (wrong dimensions,
 * non-finite numbers, malformed JSON): callers fall back where they can.
 */
export type ProviderErrorKind =
  'rate_limited' | 'unavailable' | 'timeout' | 'bad_response' | 'bad_request' | 'not_found';

export class ProviderError extends Error {
  constructor(
    readonly kind: ProviderErrorKind,
    message: string,
    readonly status?: number,
    /** How long the worker should pause this queue before trying again. */
    readonly backpressureMs?: number,
  ) {
    super(message);
    this.name = 'ProviderError';
  }
}
