import { type CallHandler, type ExecutionContext, Injectable, type NestInterceptor } from '@nestjs/common';
import { RequestContext } from '@cairn/observability';
import { type FastifyRequest } from 'fastify';
import { Observable } from 'rxjs';

/**
 * Runs the route handler inside the request's correlation context, so logs written
 * anywhere below the controller carry the correlation id and, once authenticated, the tenant.
 */
@Injectable()
export class RequestContextInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (context.getType() !== 'http') return next.handle();
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    const data = { correlationId: request.id, tenantId: request.tenantId };
    return new Observable((subscriber) => RequestContext.run(data, () => next.handle().subscribe(subscriber)));
  }
}
