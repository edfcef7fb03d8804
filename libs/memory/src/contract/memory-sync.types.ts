import { type RelationType } from './memory.types';
import { type Memory, type MemoryScopeLevel } from './memory.types';

/**
 * A position in the change feed. `after`: everything up to and including the row (xid, id) was
 * delivered. `horizon`: every change with a transaction id below `xid` was delivered. Transaction
 * ids are xid8, carried as decimal strings (they exceed Number's exact range).
 */
export type FeedPosition =
  | { readonly kind: 'after'; readonly xid: string; readonly id: string }
  | { readonly kind: 'horizon'; readonly xid: string };

/** One entry of the feed, at its position (xid, memory id). */
export type ChangedMemory =
  /** Deleted rows included: the feed turns them into tombstones. */
  | { readonly xid: string; readonly memory: Memory }
  /** A grant notice for a memory the viewer may no longer see (unshared, rule removed, tag taken off). */
  | { readonly xid: string; readonly withdrawn: { readonly id: string; readonly at: Date } };

/** Where a memory id already lives in the tenant, for import conflict checks. */
export interface ExistingMemory {
  readonly id: string;
  readonly projectId: string | null;
  readonly content: string;
  readonly deleted: boolean;
}

/** A relation between two memories as a backup carries it. */
export interface RestoredRelation {
  readonly fromId: string;
  readonly toId: string;
  readonly type: RelationType;
  readonly note: string | null;
}

/**
 * A memory written back exactly as it was exported (import): its id, timestamps, version,
 * access statistics and state kept; `supersededBy` is restored afterwards, once every row it may
 * point to exists.
 */
export interface RestoredMemory {
  readonly id: string;
  readonly projectId: string | null;
  readonly scope: MemoryScopeLevel;
  readonly content: string;
  readonly category: string;
  readonly tags: readonly string[];
  readonly keywords: readonly string[];
  readonly importance: number;
  readonly confidence: number;
  readonly source: { readonly path: string; readonly line: number | null; readonly contentHash: string | null } | null;
  readonly stale: boolean;
  readonly verifiedAt: string | null;
  readonly author: { readonly userId: string | null; readonly agentId: string | null; readonly tokenId: string | null };
  readonly pinned: boolean;
  readonly version: number;
  readonly accessCount: number;
  readonly lastAccessedAt: string | null;
  readonly archivedAt: string | null;
  readonly sensitive: boolean;
  readonly occurredAt: string;
  readonly createdAt: string;
  readonly updatedAt: string;
}
