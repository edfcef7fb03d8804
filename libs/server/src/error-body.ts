import { HttpException, HttpStatus } from '@nestjs/common';
import {
  CairnError,
  isConnectionFailure,
  nameForMessage,
  pathForMessage,
  ServiceUnavailableError,
} from '@cairn/common';
import { ZodValidationException } from 'nestjs-zod';

export interface ErrorBody {
  error: { code: string; message: string; details?: unknown };
  correlationId: string;
}

export interface MappedError {
  status: number;
  headers?: Readonly<Record<string, string>>;
  body: Omit<ErrorBody, 'correlationId'>;
  /** True when the error is ours to investigate: logged with its stack, shown as a generic 500. */
  unexpected: boolean;
  /** True for a dependency that dropped out (logged as a warning, answered 503 with Retry-After). */
  transient?: boolean;
}

const CODE_BY_STATUS: Record<number, string> = {
  400: 'bad_request',
  401: 'unauthenticated',
  403: 'forbidden',
  404: 'not_found',
  405: 'method_not_allowed',
  406: 'not_acceptable',
  409: 'conflict',
  413: 'payload_too_large',
  414: 'uri_too_long',
  415: 'unsupported_media_type',
  422: 'unprocessable_entity',
  429: 'rate_limited',
  503: 'unavailable',
};

/**
 * Nest turns Fastify's own request errors (body parsing, limits) into HttpExceptions that
 * keep Fastify's message; these get a more specific code than their status alone gives.
 */
const FASTIFY_MESSAGES: { pattern: RegExp; code: string }[] = [
  { pattern: /not valid JSON|Unexpected (token|end of JSON)/i, code: 'invalid_json' },
  { pattern: /empty.*json/i, code: 'invalid_json' },
];

interface ZodIssueLike {
  path: PropertyKey[];
  message: string;
  code?: string;
  keys?: string[];
}

function validationDetails(exception: ZodValidationException): unknown[] {
  const issues = (exception.getZodError() as { issues?: ZodIssueLike[] }).issues ?? [];
  return issues.slice(0, 20).map((issue) => ({
    path: pathForMessage(issue.path),
    message:
      issue.code === 'unrecognized_keys' && issue.keys
        ? `unknown field(s): ${issue.keys.map(nameForMessage).join(', ')}`
        : issue.message,
  }));
}

function summarise(details: unknown[]): string {
  const first = details[0] as { path: string; message: string } | undefined;
  if (!first) return 'Request validation failed';
  const where = first.path ? `${first.path}: ` : '';
  const more = details.length > 1 ? ` (and ${details.length - 1} more)` : '';
  return `Invalid request: ${where}${first.message}${more}`;
}

/** One mapping from anything thrown to a public error, shared by the Nest filter and Fastify. */
export function mapError(exception: unknown): MappedError {
  if (exception instanceof CairnError) {
    const details = exception.details === undefined ? {} : { details: exception.details };
    return {
      status: exception.status,
      headers: exception.headers,
      body: { error: { code: exception.code, message: exception.message, ...details } },
      unexpected: false,
    };
  }
  if (exception instanceof ZodValidationException) {
    const details = validationDetails(exception);
    return {
      status: 400,
      body: { error: { code: 'validation_failed', message: summarise(details), details } },
      unexpected: false,
    };
  }
  if (exception instanceof HttpException) {
    const status = exception.getStatus();
    if (status >= 500) return internal();
    const response = exception.getResponse();
    const message =
      typeof response === 'object' && response !== null && 'message' in response && typeof response.message === 'string'
        ? response.message
        : exception.message;
    const specific = status === 400 ? FASTIFY_MESSAGES.find((entry) => entry.pattern.test(message)) : undefined;
    return {
      status,
      body: { error: { code: specific?.code ?? CODE_BY_STATUS[status] ?? 'error', message } },
      unexpected: false,
    };
  }
  // A database restart or dropped connection is not a bug and the request may be repeated.
  if (isConnectionFailure(exception)) return { ...mapError(UNAVAILABLE), transient: true };
  return internal();
}

const UNAVAILABLE = new ServiceUnavailableError('The database is unreachable for the moment; retry shortly');

function internal(): MappedError {
  return {
    status: HttpStatus.INTERNAL_SERVER_ERROR,
    body: { error: { code: 'internal_error', message: 'Internal server error' } },
    unexpected: true,
  };
}
