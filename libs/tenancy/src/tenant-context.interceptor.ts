import { type CallHandler, type ExecutionContext, Injectable, type NestInterceptor } from '@nestjs/common';
import { type FastifyRequest } from 'fastify';
import { Observable } from 'rxjs';
import { TenantEntry } from './tenant-entry.service';

/** Runs tenant-addressed handlers inside the tenant context the access guard resolved. */
@Injectable()
export class TenantContextInterceptor implements NestInterceptor {
  constructor(private readonly entry: TenantEntry) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (context.getType() !== 'http') return next.handle();
    const tenant = context.switchToHttp().getRequest<FastifyRequest>().tenant;
    if (!tenant) return next.handle();
    return new Observable((subscriber) => this.entry.run(tenant, () => next.handle().subscribe(subscriber)));
  }
}
