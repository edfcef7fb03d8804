import { type ArgumentsHost, Catch, type ExceptionFilter, Logger } from '@nestjs/common';
import { type FastifyReply, type FastifyRequest } from 'fastify';
import { mapError } from './error-body';

/** Maps every exception a route throws to `{error: {code, message}, correlationId}`. */
@Catch()
export class AllExceptionsFilter implements ExceptionFilter {
  private readonly logger = new Logger('Errors');

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const request = http.getRequest<FastifyRequest>();
    const reply = http.getResponse<FastifyReply>();
    sendError(exception, request, reply, this.logger);
  }
}

export function sendError(
  exception: unknown,
  request: FastifyRequest,
  reply: FastifyReply,
  logger: Pick<Logger, 'error' | 'warn'>,
): void {
  const mapped = mapError(exception);
  if (mapped.transient) {
    logger.warn({
      msg: 'dependency unavailable',
      correlationId: request.id,
      route: request.routeOptions?.url,
      error: exception instanceof Error ? exception.message : String(exception),
    });
  }
  if (mapped.unexpected) {
    logger.error({
      msg: 'unhandled error',
      correlationId: request.id,
      route: request.routeOptions?.url,
      err: exception,
    });
  }
  if (reply.sent) return;
  for (const [name, value] of Object.entries(mapped.headers ?? {})) void reply.header(name, value);
  void reply
    .status(mapped.status)
    .header('Content-Type', 'application/json; charset=utf-8')
    .send({ ...mapped.body, correlationId: request.id });
}
