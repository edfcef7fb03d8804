import { createParamDecorator, type ExecutionContext, SetMetadata } from '@nestjs/common';
import { type FastifyRequest } from 'fastify';
import { type Permission } from './permissions';
import { type Principal } from './principal';

export const REQUIRED_PERMISSION = 'cairn:required-permission';
export const AUDIT_ACTION = 'cairn:audit-action';
export const ALLOWED_BEFORE_ACCOUNT = 'cairn:allowed-before-account';

/** Declares the permission a route needs; the global access guard enforces it. */
export const RequirePermission = (permission: Permission): MethodDecorator =>
  SetMetadata(REQUIRED_PERMISSION, permission);

/** Marks an admin action: every call is audited with its outcome (platform audit, and the tenant's log). */
export const Audited = (action: string): MethodDecorator => SetMetadata(AUDIT_ACTION, action);

/**
 * A route a bootstrap browser session (signed in with the platform admin token, no account yet)
 * may use: reading the session, signing out and creating the first platform account. Every
 * other route answers 403 `account_required` to such a session.
 */
export const AllowedBeforeAccount = (): MethodDecorator => SetMetadata(ALLOWED_BEFORE_ACCOUNT, true);

/** The authenticated principal of the request (set by the access guard). */
export const CurrentPrincipal = createParamDecorator((_data: unknown, context: ExecutionContext): Principal => {
  const request = context.switchToHttp().getRequest<FastifyRequest>();
  if (!request.principal) throw new Error('CurrentPrincipal used on a route without authentication');
  return request.principal;
});
