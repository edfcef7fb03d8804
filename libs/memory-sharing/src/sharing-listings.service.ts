import { Injectable } from '@nestjs/common';
import { assertProjectAccess, authorOf, type SessionPrincipal } from '@cairn/access';
import { ForbiddenError } from '@cairn/common';
import { MemoryShares } from '@cairn/memory';
import { ProjectResolver } from '@cairn/projects';
import { TenantTransaction } from '@cairn/tenancy';
import { type Page, type SharedMemory, type ShareGrant } from './contract/sharing.types';
import { decodeCursor, encodeCursor } from './share-cursor';

/** `shared_with_me` and `my_shares`, each one tenant transaction inside one project. */
@Injectable()
export class SharingListings {
  constructor(
    private readonly tx: TenantTransaction,
    private readonly resolver: ProjectResolver,
    private readonly shares: MemoryShares,
  ) {}

  /**
   * Memories of the project (and tenant-wide ones) that others shared with the caller, by a
   * share naming its user or agent or by a live tag rule; newest first; the token's project
   * scope applies as to any read of the project.
   */
  sharedWithMe(
    projectSlug: string,
    principal: SessionPrincipal,
    limit: number,
    cursor?: string,
  ): Promise<Page<SharedMemory>> {
    assertProjectAccess(principal, projectSlug);
    return this.tx.run(async () => {
      const project = await this.resolver.resolve(projectSlug);
      const rows = await this.shares.sharedWith(authorOf(principal), project.id, limit + 1, cursor);
      const items = rows.slice(0, limit);
      const last = items[items.length - 1];
      return { items, nextCursor: rows.length > limit && last ? last.memory.id : null };
    });
  }

  /**
   * The shares and rules the caller made (shares it granted or of its own memories, rules it
   * owns) in the project, tenant-wide memories and every-project rules included; `all`, for an
   * admin, every one of them.
   */
  myShares(
    projectSlug: string,
    principal: SessionPrincipal,
    options: { limit: number; cursor?: string; all?: boolean; memoryId?: string },
  ): Promise<Page<ShareGrant>> {
    assertProjectAccess(principal, projectSlug);
    if (options.all && principal.role !== 'admin') {
      throw new ForbiddenError("Only an admin lists everyone's shares", 'admin_required');
    }
    const after = options.cursor === undefined ? undefined : decodeCursor(options.cursor);
    return this.tx.run(async () => {
      const project = await this.resolver.resolve(projectSlug);
      const who = options.all ? null : authorOf(principal);
      const rows = await this.shares.grants(who, project.id, options.memoryId, options.limit + 1, after);
      const items = rows.slice(0, options.limit);
      const last = items[items.length - 1];
      return {
        items: items.map((row) => row.grant),
        nextCursor: rows.length > options.limit && last ? encodeCursor(last.position) : null,
      };
    });
  }
}
