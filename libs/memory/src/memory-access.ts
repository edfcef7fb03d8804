import { roleGrants, type SessionPrincipal } from '@cairn/access';
import { ConflictError, ForbiddenError, NotFoundError } from '@cairn/common';
import { type ProjectRef } from '@cairn/projects';
import { type MemoryScope } from './contract/memory-filter';
import { type MemoryScopeLevel, type Memory } from './contract/memory.types';
import { type MemoryViewer, type Viewer } from './contract/memory-viewer';
import { isAuthoredBy, type OwnerIdentity } from './memory-ownership';

/**
 * Inside a project a caller sees that project's memories and the team ones, private ones only
 * when `viewer` wrote them or was given them.
 */
export function projectScope(project: ProjectRef, viewer: Viewer): MemoryScope {
  return { projectIds: [project.id], includeTenantWide: true, viewer };
}

/** The identity a principal reads memories as. */
export function viewerOf(principal: SessionPrincipal): MemoryViewer {
  return { userId: principal.userId, agentId: principal.agentId, tokenId: principal.tokenId };
}

/**
 * The author owns a memory (see memory-ownership.ts for who that is): a principal or a viewer,
 * for privacy (who sees a private memory), changing, deleting and owning shares alike.
 */
export function isAuthor(who: OwnerIdentity, memory: Memory): boolean {
  return isAuthoredBy(who, memory.author);
}

/**
 * A memory found through the visibility rule (MemoriesRepository.findVisible), or 404: outside
 * the caller's projects, private to someone else, deleted or missing all answer alike, so an id
 * never tells whether a memory exists elsewhere.
 */
export function orNotFound(memory: Memory | null): Memory {
  if (!memory) throw new NotFoundError('Memory');
  return memory;
}

/** Authors change their memories; roles with `memory.maintain` (members, admins) may change any. */
export function mayModify(principal: SessionPrincipal, memory: Memory): boolean {
  return isAuthor(principal, memory) || roleGrants(principal.role, 'memory.maintain');
}

export function assertMayModify(principal: SessionPrincipal, memory: Memory): void {
  if (mayModify(principal, memory)) return;
  throw new ForbiddenError('Only the author of a memory or a maintainer may change it', 'not_owner');
}

/**
 * Updating (a new version) is the one change a write share also allows its grantee; the share
 * is looked up only when the caller may not modify the memory anyway, and never cached, so a
 * revoked share stops allowing it at once. Superseding, merging, linking and deleting stay
 * with assertMayModify and assertMayDelete: a share never reaches them.
 */
export async function assertMayUpdate(
  principal: SessionPrincipal,
  memory: Memory,
  writeShared: (memoryId: string) => Promise<boolean>,
): Promise<void> {
  if (mayModify(principal, memory) || (await writeShared(memory.id))) return;
  throw new ForbiddenError(
    'Only the author of a memory, a maintainer or a grantee of a write share may update it',
    'not_owner',
  );
}

/** The optimistic-concurrency guard of update and delete: 409 when the memory moved past `expected`. */
export function assertAtVersion(memory: Memory, expected: number | undefined): void {
  if (expected === undefined || memory.version === expected) return;
  throw new ConflictError(
    `the memory is at version ${memory.version}, not ${expected}: it changed since that version was read`,
    'version_conflict',
  );
}

/** Deleting is narrower than changing: the author, or a tenant admin (never a share's grantee). */
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
 * Team memories are read by every project, so they are written directly only by those who
 * decide what the team shares: an orchestrator or a tenant admin. Everyone else proposes a
 * promotion (the review queue).
 */
export function assertMayWriteScope(principal: SessionPrincipal, scope: MemoryScopeLevel): void {
  if (scope !== 'team' || principal.role === 'admin' || principal.role === 'orchestrator') return;
  throw new ForbiddenError(
    'Only an orchestrator or an admin stores team memories directly; store it as project or private and propose a promotion',
    'team_scope_forbidden',
  );
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
