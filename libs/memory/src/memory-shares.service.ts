import { Injectable } from '@nestjs/common';
import { TenantTransaction } from '@cairn/tenancy';
import {
  type Grantee,
  type GrantPosition,
  type MemoryShare,
  type Party,
  type SharedMemory,
  type ShareGrant,
  type SharePermission,
  type ShareRule,
} from './contract/memory-sharing.types';
import { MemorySharesRepository } from './memory-shares.repository';

/**
 * Shares and tag rules (memory_shares, memory_share_rules, and the grant notices they write)
 * for memory-sharing's use cases. Each call joins the caller's tenant transaction; who may
 * share what is the caller's to check (the memory's author or an admin).
 */
@Injectable()
export class MemoryShares {
  constructor(
    private readonly tx: TenantTransaction,
    private readonly shares: MemorySharesRepository,
  ) {}

  /** Shares the memory, or changes the permission (and who granted it) of the existing share. */
  upsertShare(
    memoryId: string,
    grantee: Grantee,
    permission: SharePermission,
    by: Party,
  ): Promise<{ share: MemoryShare; created: boolean }> {
    return this.tx.run(() => this.shares.upsertShare(memoryId, grantee, permission, by));
  }

  findShare(id: string): Promise<MemoryShare | null> {
    return this.tx.run(() => this.shares.findShare(id));
  }

  deleteShare(id: string): Promise<void> {
    return this.tx.run(() => this.shares.deleteShare(id));
  }

  upsertRule(rule: {
    projectId: string | null;
    tag: string;
    grantee: Grantee;
    permission: SharePermission;
    owner: Party;
  }): Promise<{ rule: ShareRule; created: boolean }> {
    return this.tx.run(() => this.shares.upsertRule(rule));
  }

  findRule(id: string): Promise<ShareRule | null> {
    return this.tx.run(() => this.shares.findRule(id));
  }

  deleteRule(id: string): Promise<void> {
    return this.tx.run(() => this.shares.deleteRule(id));
  }

  /** The project's and team memories shared with `viewer` and not its own, newest first. */
  sharedWith(viewer: Party, projectId: string, limit: number, afterId?: string): Promise<SharedMemory[]> {
    return this.tx.run(() => this.shares.sharedWith(viewer, projectId, limit, afterId));
  }

  /** Shares and rules of the project, newest first: `who`'s, or (null) every one. */
  grants(
    who: Party | null,
    projectId: string,
    memoryId: string | undefined,
    limit: number,
    after?: GrantPosition,
  ): Promise<{ grant: ShareGrant; position: GrantPosition }[]> {
    return this.tx.run(() => this.shares.grants(who, projectId, memoryId, limit, after));
  }
}
