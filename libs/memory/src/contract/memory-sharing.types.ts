import { type Memory } from './memory.types';

/** Permissions a share or a tag rule grants; `write` includes reading. */
export type SharePermission = 'read' | 'write';

/** Whom a share names: one user of the tenant (any of its tokens and agents), or one agent id. */
export type Grantee =
  { readonly userId: string; readonly agentId?: undefined } | { readonly agentId: string; readonly userId?: undefined };

/** A principal as recorded on a share (who granted it) or a rule (its owner). */
export interface Party {
  readonly userId: string | null;
  readonly agentId: string | null;
  readonly tokenId: string | null;
}

/** One memory shared with one grantee. */
export interface MemoryShare {
  readonly kind: 'share';
  readonly id: string;
  readonly memoryId: string;
  /** The memory's project slug; null for a tenant-wide memory. */
  readonly project: string | null;
  readonly grantee: { readonly userId: string | null; readonly agentId: string | null };
  readonly permission: SharePermission;
  readonly grantedBy: Party;
  readonly createdAt: Date;
}

/** A live tag rule: every memory of `owner` tagged `tag` (in `project`, or every project) is shared. */
export interface ShareRule {
  readonly kind: 'rule';
  readonly id: string;
  readonly tag: string;
  /** Project slug; null when the rule covers every project. */
  readonly project: string | null;
  readonly projectId: string | null;
  readonly grantee: { readonly userId: string | null; readonly agentId: string | null };
  readonly permission: SharePermission;
  readonly owner: Party;
  readonly createdAt: Date;
}

export type ShareGrant = MemoryShare | ShareRule;

/** A memory shared with the caller, with the strongest grant that shares it. */
export interface SharedMemory {
  readonly memory: Memory;
  readonly permission: SharePermission;
  readonly via: 'share' | 'rule';
  readonly grantId: string;
  readonly sharedBy: Party;
  readonly sharedAt: Date;
}

/** Keyset position of a grant listing: its creation time (microseconds, UTC) and id. */
export interface GrantPosition {
  readonly at: string;
  readonly id: string;
}
