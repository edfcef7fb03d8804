import { Injectable } from '@nestjs/common';
import { assertProjectAccess, authorOf, type SessionPrincipal } from '@cairn/access';
import { UsersService } from '@cairn/auth';
import { BadRequestError, ForbiddenError, NotFoundError } from '@cairn/common';
import {
  isAuthor,
  isAuthoredBy,
  type Memory,
  MemoryRecords,
  MemoryShares,
  orNotFound,
  projectScope,
  viewerOf,
} from '@cairn/memory';
import { type ProjectRef, ProjectResolver } from '@cairn/projects';
import { SecretRedaction } from '@cairn/secrets';
import { TenantTransaction } from '@cairn/tenancy';
import { type Grantee, type MemoryShare, type SharePermission, type ShareRule } from './contract/sharing.types';

/**
 * Sharing a memory, or by a tag rule every memory of one's own carrying the tag, with one user
 * or one agent; and taking it back. Only a memory's owner (its author, as memory defines it) or
 * a tenant admin shares it or changes a share: a grantee, even with write, never re-shares.
 * Nothing here is cached: what the tables hold when a request runs is what it sees, so an
 * unshare takes effect on the next request.
 */
@Injectable()
export class MemorySharing {
  constructor(
    private readonly tx: TenantTransaction,
    private readonly resolver: ProjectResolver,
    private readonly records: MemoryRecords,
    private readonly shares: MemoryShares,
    private readonly users: UsersService,
    private readonly secrets: SecretRedaction,
  ) {}

  async shareMemory(
    projectSlug: string,
    principal: SessionPrincipal,
    memoryId: string,
    grantee: Grantee,
    permission: SharePermission,
  ): Promise<{ share: MemoryShare; created: boolean }> {
    assertProjectAccess(principal, projectSlug);
    // What the caller may not touch is refused (404, 403) before anything about the grantee shows.
    const memory = await this.tx.run(async () =>
      this.ownedMemory(await this.project(projectSlug), principal, memoryId),
    );
    if (isAuthoredBy(asIdentity(grantee), memory.author) || isCaller(principal, grantee)) {
      throw new BadRequestError('A memory is not shared with its owner or with yourself', undefined, 'self_share');
    }
    await this.assertGranteeExists(principal, grantee);
    return this.tx.run(async () => {
      const current = await this.ownedMemory(await this.project(projectSlug), principal, memoryId);
      return this.shares.upsertShare(current.id, grantee, permission, authorOf(principal));
    });
  }

  /**
   * A live rule: whatever of the caller's own memories carries `tag` (in this project, or with
   * `allProjects` in every project) is shared, later ones too, evaluated when read.
   */
  async shareTag(
    projectSlug: string,
    principal: SessionPrincipal,
    input: { tag: string; allProjects: boolean; grantee: Grantee; permission: SharePermission },
  ): Promise<{ rule: ShareRule; created: boolean }> {
    assertProjectAccess(principal, projectSlug);
    if (input.allProjects && principal.projects !== '*') {
      throw new ForbiddenError(
        'A rule over every project needs a token scoped to every project ("*")',
        'scope_too_narrow',
      );
    }
    if (isCaller(principal, input.grantee)) {
      throw new BadRequestError('Your memories are already yours: name someone else', undefined, 'self_share');
    }
    const project = await this.tx.run(() => this.project(projectSlug));
    await this.assertGranteeExists(principal, input.grantee);
    // Redacted as the memories' tags are (the same secret, the same placeholder), so the rule
    // still matches them; their originals are kept with the memories that carry the tag.
    const { tag } = (await this.secrets.redactFields({ tag: input.tag })).fields;
    return this.tx.run(() =>
      this.shares.upsertRule({
        projectId: input.allProjects ? null : project.id,
        tag,
        grantee: input.grantee,
        permission: input.permission,
        owner: authorOf(principal),
      }),
    );
  }

  /** Removes a share of a memory of this project (or a tenant-wide one): its owner or an admin. */
  async unshareMemory(projectSlug: string, principal: SessionPrincipal, shareId: string): Promise<MemoryShare> {
    assertProjectAccess(principal, projectSlug);
    return this.tx.run(async () => {
      const project = await this.project(projectSlug);
      const share = await this.shares.findShare(shareId);
      if (!share) throw new NotFoundError('Share');
      await this.ownedMemory(project, principal, share.memoryId, 'Share');
      await this.shares.deleteShare(share.id);
      return share;
    });
  }

  /** Removes a tag rule of this project (or of every project): its owner or an admin. */
  async deleteRule(projectSlug: string, principal: SessionPrincipal, ruleId: string): Promise<ShareRule> {
    assertProjectAccess(principal, projectSlug);
    return this.tx.run(async () => {
      const project = await this.project(projectSlug);
      const rule = await this.shares.findRule(ruleId);
      if (!rule || (rule.projectId !== null && rule.projectId !== project.id)) throw new NotFoundError('Share rule');
      if (!isAuthoredBy(principal, rule.owner) && principal.role !== 'admin') {
        throw new ForbiddenError('Only the owner of a share rule or an admin may remove it', 'not_owner');
      }
      await this.shares.deleteRule(rule.id);
      return rule;
    });
  }

  /** `memory_unshare`: one id, a share's or a rule's. */
  async unshare(projectSlug: string, principal: SessionPrincipal, id: string): Promise<MemoryShare | ShareRule> {
    const isShare = await this.tx.run(async () => (await this.shares.findShare(id)) !== null);
    return isShare ? this.unshareMemory(projectSlug, principal, id) : this.deleteRule(projectSlug, principal, id);
  }

  /**
   * `memory_share`'s one entry: a memory id (one share) or a tag (a rule), and one grantee. The
   * project is resolved before the arguments are judged, so a call on a project the caller's
   * tenant lacks is a 404 whatever its arguments.
   */
  async share(
    projectSlug: string,
    principal: SessionPrincipal,
    args: {
      id?: string;
      tag?: string;
      allProjects?: boolean;
      userId?: string;
      agentId?: string;
      permission: SharePermission;
    },
  ): Promise<{ grant: MemoryShare | ShareRule; created: boolean }> {
    assertProjectAccess(principal, projectSlug);
    await this.tx.run(() => this.project(projectSlug));
    if ((args.id === undefined) === (args.tag === undefined)) {
      throw new BadRequestError(
        'Give id (one memory) or tag (a rule over your memories), not both',
        undefined,
        'bad_request',
      );
    }
    if ((args.userId === undefined) === (args.agentId === undefined)) {
      throw new BadRequestError('Give exactly one of userId and agentId', undefined, 'bad_request');
    }
    if (args.id !== undefined && args.allProjects !== undefined) {
      throw new BadRequestError('allProjects goes with a tag rule, not with one memory', undefined, 'bad_request');
    }
    const grantee: Grantee = args.userId !== undefined ? { userId: args.userId } : { agentId: args.agentId as string };
    if (args.id !== undefined) {
      const { share, created } = await this.shareMemory(projectSlug, principal, args.id, grantee, args.permission);
      return { grant: share, created };
    }
    const { rule, created } = await this.shareTag(projectSlug, principal, {
      tag: args.tag as string,
      allProjects: args.allProjects ?? false,
      grantee,
      permission: args.permission,
    });
    return { grant: rule, created };
  }

  private project(slug: string): Promise<ProjectRef> {
    return this.resolver.resolve(slug);
  }

  /** The memory, visible in the project, that the caller may share: its owner's or, for an admin, any. */
  private async ownedMemory(
    project: ProjectRef,
    principal: SessionPrincipal,
    memoryId: string,
    what = 'Memory',
  ): Promise<Memory> {
    let memory: Memory;
    try {
      memory = orNotFound(await this.records.findVisible(memoryId, projectScope(project, viewerOf(principal))));
    } catch (error) {
      if (error instanceof NotFoundError) throw new NotFoundError(what);
      throw error;
    }
    if (!isAuthor(principal, memory) && principal.role !== 'admin') {
      throw new ForbiddenError('Only the owner of a memory or an admin may share it or change its shares', 'not_owner');
    }
    return memory;
  }

  /** A user grantee must be a user of the caller's tenant; an agent id is only checked for its form. */
  private async assertGranteeExists(principal: SessionPrincipal, grantee: Grantee): Promise<void> {
    if (grantee.userId === undefined) return;
    try {
      await this.users.get(principal.tenant, grantee.userId);
    } catch (error) {
      if (!(error instanceof NotFoundError)) throw error;
      throw new BadRequestError('userId names no user of this tenant', undefined, 'unknown_user');
    }
  }
}

function asIdentity(grantee: Grantee) {
  return { userId: grantee.userId ?? null, agentId: grantee.agentId ?? null, tokenId: null };
}

/** The grantee is the caller: its user, or its agent id. */
function isCaller(principal: SessionPrincipal, grantee: Grantee): boolean {
  if (grantee.userId !== undefined) return grantee.userId === principal.userId;
  return grantee.agentId === principal.agentId;
}
