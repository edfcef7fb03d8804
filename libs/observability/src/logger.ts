import { type LoggerService } from '@nestjs/common';
import pino, { type Logger } from 'pino';
import { RequestContext } from './request-context';

/**
 * Paths never written to logs. Requests are logged by our own hook with an explicit field
 * list, so these are a second line of defence for anything logged by accident.
 */
const REDACTED_PATHS = [
  'authorization',
  'token',
  'password',
  'secret',
  '*.authorization',
  '*.token',
  '*.password',
  '*.secret',
  'headers.authorization',
  'req.headers.authorization',
  'req.headers.cookie',
];

/** Lines held back at most this long (or until this many bytes wait) by a batching logger. */
const BATCH_FLUSH_MS = 200;
const BATCH_BYTES = 4_096;

export interface RootLoggerOptions {
  /**
   * Write stdout in batches: lines wait until 4 KB are pending or 200 ms have passed. Each
   * write is a hand-off to a libuv thread and back (pino's default destination writes every
   * line that way), which for the two lines of every request cost more of a server's CPU
   * than the lines themselves. Every line keeps its own timestamp; pending lines are written
   * synchronously when the process exits (pino's exit hook), so only a kill -9 can lose
   * them, and at most 200 ms' worth.
   */
  readonly batched?: boolean;
}

export function createRootLogger(app: string, level: string, options: RootLoggerOptions = {}): Logger {
  const settings = {
    level,
    base: { app },
    redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label: string) => ({ level: label }) },
  };
  if (!options.batched) return pino(settings);
  return pino(
    settings,
    pino.destination({ dest: 1, sync: false, minLength: BATCH_BYTES, periodicFlush: BATCH_FLUSH_MS }),
  );
}

/** Nest's start-up chatter: useful when debugging wiring, noise otherwise. */
const BOOT_CONTEXTS = new Set(['InstanceLoader', 'RoutesResolver', 'RouterExplorer', 'NestFactory', 'NestApplication']);

/** Routes Nest's own logging into pino, adding the request's correlation and tenant ids. */
export class PinoLoggerService implements LoggerService {
  constructor(private readonly root: Logger) {}

  log(message: unknown, ...rest: unknown[]): void {
    this.write('info', message, rest);
  }
  error(message: unknown, ...rest: unknown[]): void {
    this.write('error', message, rest);
  }
  warn(message: unknown, ...rest: unknown[]): void {
    this.write('warn', message, rest);
  }
  debug(message: unknown, ...rest: unknown[]): void {
    this.write('debug', message, rest);
  }
  verbose(message: unknown, ...rest: unknown[]): void {
    this.write('trace', message, rest);
  }
  fatal(message: unknown, ...rest: unknown[]): void {
    this.write('fatal', message, rest);
  }

  private write(level: pino.Level, message: unknown, rest: unknown[]): void {
    // Nest passes the context (logger name) as the last string argument.
    const context = typeof rest[rest.length - 1] === 'string' ? (rest.pop() as string) : undefined;
    if (level === 'info' && context && BOOT_CONTEXTS.has(context)) level = 'debug';
    const request = RequestContext.current();
    const fields: Record<string, unknown> = {};
    if (context) fields.context = context;
    if (request) {
      fields.correlationId = request.correlationId;
      if (request.tenantId) fields.tenantId = request.tenantId;
    }
    const [first] = rest;
    if (message instanceof Error) {
      this.root[level]({ ...fields, err: message }, message.message);
    } else if (typeof message === 'object' && message !== null) {
      this.root[level]({ ...fields, ...message });
    } else {
      if (typeof first === 'string' && level === 'error') fields.stack = first;
      this.root[level](fields, String(message));
    }
  }
}
