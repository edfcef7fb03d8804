import { canAccessProject, type SessionPrincipal } from '@cairn/access';
import { ForbiddenError } from '@cairn/common';

/**
 * The access guard checks the path's project for REST calls; services check again so other
 * callers (MCP tools) cannot step outside the token's project scope.
 */
export function assertProjectAccess(principal: SessionPrincipal, projectSlug: string): void {
  if (!canAccessProject(principal, projectSlug)) {
    throw new ForbiddenError(`This token may not use project "${projectSlug}"`, 'project_forbidden');
  }
}
