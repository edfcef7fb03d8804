/** An error answer of the API (`{ error: { code, message }, correlationId }`), or a network failure. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly correlationId?: string,
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

interface ErrorBody {
  error?: { code?: unknown; message?: unknown };
  correlationId?: unknown;
}

/** The ApiError of a failed answer, from its body when it has the API's error shape. */
export function apiErrorOf(response: Response, body: unknown): ApiError {
  const parsed = (typeof body === 'object' && body !== null ? body : {}) as ErrorBody;
  const code = typeof parsed.error?.code === 'string' ? parsed.error.code : `http_${response.status}`;
  const message =
    typeof parsed.error?.message === 'string' ? parsed.error.message : `${response.status} ${response.statusText}`;
  const retryAfter = Number(response.headers.get('retry-after'));
  return new ApiError(
    response.status,
    code,
    message,
    typeof parsed.correlationId === 'string' ? parsed.correlationId : undefined,
    Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter : undefined,
  );
}

export function unreachable(error: unknown): ApiError {
  return new ApiError(0, 'unreachable', `The server could not be reached (${String(error)})`);
}

/** A sentence for the person at the screen. */
export function describeError(error: unknown): string {
  if (error instanceof ApiError) {
    const retry = error.retryAfterSeconds ? ` Try again in ${error.retryAfterSeconds} s.` : '';
    const id = error.correlationId ? ` (correlation id ${error.correlationId})` : '';
    return `${error.message}${retry}${id}`;
  }
  return error instanceof Error ? error.message : String(error);
}
