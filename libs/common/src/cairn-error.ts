/**
 * Domain errors carry a stable machine-readable code and an HTTP status; one global
 * filter turns them into `{error: {code, message}, correlationId}` (and MCP tool errors).
 * Messages are written for the API caller: they never include internals or secrets.
 */
export class CairnError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: unknown,
    /** Response headers the error implies (e.g. `WWW-Authenticate` on a 401). */
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(message);
    this.name = new.target.name;
  }
}

export class BadRequestError extends CairnError {
  constructor(message: string, details?: unknown, code = 'bad_request') {
    super(400, code, message, details);
  }
}

export type UnauthenticatedCode =
  'unauthenticated' | 'invalid_token' | 'token_expired' | 'token_revoked' | 'user_disabled';

/** 401 with an RFC 6750 challenge; apps may add `resource_metadata` (MCP) to the challenge. */
export class UnauthenticatedError extends CairnError {
  constructor(code: UnauthenticatedCode, message: string, challengeParams: Record<string, string> = {}) {
    const params = {
      realm: 'cairn',
      ...(code === 'unauthenticated' ? {} : { error: 'invalid_token' }),
      ...challengeParams,
    };
    const challenge = `Bearer ${Object.entries(params)
      .map(([key, value]) => `${key}="${value}"`)
      .join(', ')}`;
    super(401, code, message, undefined, { 'WWW-Authenticate': challenge });
  }
}

export class ForbiddenError extends CairnError {
  constructor(message: string, code = 'forbidden') {
    super(403, code, message);
  }
}

export class NotFoundError extends CairnError {
  constructor(what: string) {
    super(404, 'not_found', `${what} not found`);
  }
}

export class ConflictError extends CairnError {
  constructor(message: string, code = 'conflict') {
    super(409, code, message);
  }
}

/** 429: a request budget ran out; `Retry-After` says when to try again, `details` which budget. */
export class RateLimitedError extends CairnError {
  constructor(message: string, retryAfterSeconds: number, details?: unknown) {
    super(429, 'rate_limited', message, details, { 'Retry-After': String(retryAfterSeconds) });
  }
}

/** Raised when tenant-scoped code runs outside a tenant context: a programming error, never user input. */
export class MissingTenantContextError extends Error {
  constructor(operation: string) {
    super(`${operation} requires a tenant context; enter the tenant with TenantEntry`);
    this.name = 'MissingTenantContextError';
  }
}
