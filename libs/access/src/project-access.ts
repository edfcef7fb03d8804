import { ForbiddenError } from '@cairn/common';
import { canAccessProject, type Principal, type SessionPrincipal } from './principal';

/**
 * The one check that a principal may use a project, for every caller: the access guard runs
 * it on the path's project of REST calls, the MCP executor on a tool call's project, and the
 * services again, so any other way in (a job acting for a principal, a service calling
 * another) cannot step outside the token's project scope either.
 */
export function assertProjectAccess(principal: SessionPrincipal, projectSlug: string): void {
  if (!canAccessProject(principal, projectSlug)) {
    throw new ForbiddenError(`This token may not use project "${projectSlug}"`, 'project_forbidden');
  }
}

/**
 * A token scope (one being issued, or one being revoked) the principal may act on: only within
 * its own, so a token scoped to some projects cannot mint or revoke access to the others. The
 * platform admin and every-project tokens may act on any scope.
 */
export function assertScopeWithin(principal: Principal, projects: '*' | readonly string[]): void {
  if (principal.kind === 'platform' || principal.projects === '*') return;
  if (projects === '*' || projects.includes('*')) {
    throw new ForbiddenError('A token scoped to some projects cannot act on every project', 'project_forbidden');
  }
  for (const slug of projects) assertProjectAccess(principal, slug);
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
