import {
  type CallHandler,
  type ExecutionContext,
  HttpStatus,
  Injectable,
  Logger,
  type NestInterceptor,
} from '@nestjs/common';
import { HTTP_CODE_METADATA } from '@nestjs/common/constants';
import { Reflector } from '@nestjs/core';
import { actorOf, AUDIT_ACTION } from '@cairn/access';
import { mapError } from '@cairn/server';
import { type FastifyRequest } from 'fastify';
import { catchError, concatMap, from, map, type Observable, throwError } from 'rxjs';
import { AuditTrail } from './audit-trail.service';
import { type AuditOutcome } from './platform-audit.repository';

/**
 * Records each call of an `@Audited` route with its outcome (platform audit, and the
 * tenant's own log for tenant routes) before the response leaves. Denials by the access
 * guard are recorded by the guard itself.
 */
@Injectable()
export class AuditInterceptor implements NestInterceptor {
  private readonly logger = new Logger('Audit');

  constructor(
    private readonly reflector: Reflector,
    private readonly audit: AuditTrail,
  ) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const action = this.reflector.get<string | undefined>(AUDIT_ACTION, context.getHandler());
    if (!action || context.getType() !== 'http') return next.handle();
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    const successStatus =
      this.reflector.get<number | undefined>(HTTP_CODE_METADATA, context.getHandler()) ??
      (request.method === 'POST' ? HttpStatus.CREATED : HttpStatus.OK);
    return next.handle().pipe(
      concatMap((result: unknown) => {
        const createdTenantId = action === 'tenant.create' ? (result as { id?: string } | undefined)?.id : undefined;
        return from(this.write(request, action, 'success', successStatus, createdTenantId)).pipe(map(() => result));
      }),
      catchError((error: unknown) => {
        const mapped = mapError(error);
        const outcome: AuditOutcome = mapped.status === 403 ? 'denied' : 'failure';
        const details = { code: mapped.body.error.code };
        return from(this.write(request, action, outcome, mapped.status, undefined, details)).pipe(
          concatMap(() => throwError(() => error)),
        );
      }),
    );
  }

  private async write(
    request: FastifyRequest,
    action: string,
    outcome: AuditOutcome,
    status: number,
    tenantId?: string,
    details?: Record<string, unknown>,
  ): Promise<void> {
    try {
      const entry = {
        actor: actorOf(request.principal),
        tenantId: tenantId ?? request.tenant?.id ?? null,
        action,
        target: request.url.split('?')[0] ?? null,
        outcome,
        status,
        requestId: request.id,
        details,
      };
      await this.audit.record(entry, request.tenant?.schema);
    } catch (error) {
      // A failed audit write must not undo a completed admin action, but it must be loud.
      this.logger.error({ msg: 'audit write failed', action, correlationId: request.id, err: error });
    }
  }
}
