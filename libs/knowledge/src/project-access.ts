import { canAccessProject, type SessionPrincipal } from '@cairn/access';
import { ForbiddenError } from '@cairn/common';

/**
 * The access guard checks the path's project for REST calls; services check again so any
 * other caller (MCP tools, jobs acting for a principal) cannot step outside the token scope.
 */
export function assertProjectAccess(principal: SessionPrincipal, projectSlug: string): void {
  if (!canAccessProject(principal, projectSlug)) {
    throw new ForbiddenError(`This token may not use project "${projectSlug}"`, 'project_forbidden');
  }
}

/** The projects a cross-project search covers: the token scope, narrowed (never widened) by a request. */
export function searchScope(
  principal: SessionPrincipal,
  requested: readonly string[] | undefined,
): { scope: '*' | string[]; ignored: number } {
  if (requested === undefined) return { scope: principal.projects === '*' ? '*' : [...principal.projects], ignored: 0 };
  const unique = [...new Set(requested)];
  const allowed = unique.filter((slug) => canAccessProject(principal, slug));
  return { scope: allowed, ignored: unique.length - allowed.length };
}
