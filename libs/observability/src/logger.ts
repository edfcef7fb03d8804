import { type LoggerService } from '@nestjs/common';
import pino, { type Logger } from 'pino';
import pinoPretty from 'pino-pretty';
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
  // The coordination channel's posting key (REST header, tool argument).
  'channelKey',
  '*.channelKey',
  'req.headers["x-channel-key"]',
];

/**
 * The process's logger: JSON lines (pino), one per event, for collectors; but lines a person
 * reads (time, level, app and component, message, then the fields on the same line) when
 * standard output is a terminal, as under `npm start` in a shell. The same events either way.
 */
export function createRootLogger(
  app: string,
  level: string,
  output: { readonly terminal?: boolean; readonly destination?: NodeJS.WritableStream } = {},
): Logger {
  const options: pino.LoggerOptions = {
    level,
    base: { app },
    redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
    timestamp: pino.stdTimeFunctions.isoTime,
  };
  if (!(output.terminal ?? process.stdout.isTTY === true)) {
    return pino({ ...options, formatters: { level: (label) => ({ level: label }) } });
  }
  return pino(options, readableLines(output.destination));
}

/** pino-pretty, synchronous (a fatal start-up line must be out before the process exits). */
function readableLines(destination?: NodeJS.WritableStream): NodeJS.WritableStream {
  return pinoPretty({
    ...(destination && { destination }),
    sync: true,
    colorize: true,
    singleLine: true,
    translateTime: 'SYS:HH:MM:ss.l',
    ignore: 'pid,hostname,app,context',
    messageFormat: '{app}{if context} {context}{end}: {msg}',
  });
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
