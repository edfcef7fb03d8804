import { roleGrants, type SessionPrincipal } from '@cairn/access';
import { ConflictError, ForbiddenError, NotFoundError } from '@cairn/common';
import { type ProjectRef } from '@cairn/projects';
import { type MemoryScope } from './contract/memory-filter';
import { type Memory } from './contract/memory.types';

/** Inside a project a caller sees that project's memories and the tenant-wide ones. */
export function projectScope(project: ProjectRef): MemoryScope {
  return { projectIds: [project.id], includeTenantWide: true };
}

/** 404 for anything outside the project (no hint that it exists elsewhere) or deleted. */
export function visibleIn(memory: Memory | null, project: ProjectRef): Memory {
  if (!memory || memory.deletedAt || (memory.projectId !== null && memory.projectId !== project.id)) {
    throw new NotFoundError('Memory');
  }
  return memory;
}

/**
 * The author owns a memory: the same user (any of the user's agents), or for service tokens
 * the same agent, or the very token that wrote it.
 */
export function isAuthor(principal: SessionPrincipal, memory: Memory): boolean {
  if (memory.author.userId) return principal.userId === memory.author.userId;
  if (memory.author.agentId) return principal.agentId === memory.author.agentId;
  return principal.tokenId === memory.author.tokenId;
}

/** Authors change their memories; roles with `memory.maintain` (members, admins) may change any. */
export function assertMayModify(principal: SessionPrincipal, memory: Memory): void {
  if (isAuthor(principal, memory) || roleGrants(principal.role, 'memory.maintain')) return;
  throw new ForbiddenError('Only the author of a memory or a maintainer may change it', 'not_owner');
}

/** Deleting is narrower than changing: the author, or a tenant admin. */
export function assertMayDelete(principal: SessionPrincipal, memory: Memory): void {
  if (isAuthor(principal, memory) || principal.role === 'admin') return;
  throw new ForbiddenError('Only the author of a memory or an admin may delete it', 'not_owner');
}

/** Tenant-wide memories apply to every project: only tokens scoped to all projects write them. */
export function assertMayWriteTenantWide(principal: SessionPrincipal): void {
  if (principal.projects !== '*') {
    throw new ForbiddenError('Tenant-wide memories need a token scoped to every project ("*")', 'scope_too_narrow');
  }
}

/**
 * A memory is replaced once. Superseding one that another memory already superseded would
 * silently rewrite that decision: refuse it (409), naming the memory that replaced it, so the
 * caller supersedes that one instead. Superseding again by the same memory is a no-op.
 */
export function assertNotSupersededElsewhere(memories: readonly Memory[], byId: string): void {
  const taken = memories.find((memory) => memory.supersededBy !== null && memory.supersededBy !== byId);
  if (taken) {
    throw new ConflictError(
      `Memory ${taken.id} was already superseded by ${taken.supersededBy}; supersede that one instead`,
      'already_superseded',
    );
  }
}
