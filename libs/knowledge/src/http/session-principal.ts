import { type Principal, type SessionPrincipal } from '@cairn/access';
import { ForbiddenError } from '@cairn/common';

/** Project and session routes only ever admit session tokens (the guard); this narrows the type. */
export function sessionPrincipal(principal: Principal): SessionPrincipal {
  if (principal.kind !== 'session') {
    throw new ForbiddenError('Knowledge-base data needs a tenant session token', 'session_token_required');
  }
  return principal;
}
