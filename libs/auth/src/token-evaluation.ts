import { DEFAULT_TOOLSETS, isToolset, type Role, roleWithin, type SessionPrincipal } from '@cairn/access';
import { type UnauthenticatedCode } from '@cairn/common';
import { type TokenLookup } from './tokens.repository';

export type TokenEvaluation =
  | { readonly active: true; readonly principal: SessionPrincipal }
  | {
      readonly active: false;
      /** `tenant_suspended` is a 403 (the token is fine, its tenant is on hold); the others are 401s. */
      readonly code: UnauthenticatedCode | 'tenant_suspended';
      readonly message: string;
    };

/**
 * A token never grants more than its user currently may: after a demotion the token
 * acts with the user's new role at once.
 */
export function effectiveRole(tokenRole: Role, userRole: Role | null): Role {
  if (userRole === null || roleWithin(tokenRole, userRole)) return tokenRole;
  return roleWithin(userRole, tokenRole) ? userRole : 'reader';
}

/** The project tool calls use when they name none: the one set at issue, else the only one in scope. */
export function effectiveDefaultProject(projects: '*' | readonly string[], set: string | null): string | null {
  return set ?? (projects !== '*' && projects.length === 1 ? projects[0] : null);
}

/** Decides whether a looked-up token is usable right now, and as whom. */
export function evaluateToken(lookup: TokenLookup | undefined, now: Date): TokenEvaluation {
  if (!lookup) return { active: false, code: 'invalid_token', message: 'Token is not recognised' };
  if (lookup.revokedAt || lookup.tenantDeleted) {
    return { active: false, code: 'token_revoked', message: 'Token has been revoked' };
  }
  if (lookup.expiresAt.getTime() <= now.getTime()) {
    return { active: false, code: 'token_expired', message: 'Token has expired' };
  }
  if (lookup.userDisabled) {
    return { active: false, code: 'user_disabled', message: "The token's user is disabled" };
  }
  if (lookup.tenantSuspended) {
    return { active: false, code: 'tenant_suspended', message: 'This tenant is suspended; ask the operator' };
  }
  const projects = lookup.projects.includes('*') ? '*' : lookup.projects;
  return {
    active: true,
    principal: {
      kind: 'session',
      tokenId: lookup.id,
      tenant: { id: lookup.tenantId, slug: lookup.tenantSlug, schema: lookup.tenantSchema, name: lookup.tenantName },
      role: effectiveRole(lookup.role, lookup.userRole),
      userId: lookup.userId,
      agentId: lookup.agentId,
      projects,
      defaultProject: effectiveDefaultProject(projects, lookup.defaultProject),
      // Names a later release dropped are ignored rather than failing the token.
      toolsets: lookup.toolsets ? lookup.toolsets.filter(isToolset) : DEFAULT_TOOLSETS,
      expiresAt: lookup.expiresAt,
    },
  };
}
