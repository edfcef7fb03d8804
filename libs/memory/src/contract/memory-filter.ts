import { type MemoryCategory } from './memory.types';

/** Which memories a caller may see: some projects, and the tenant-wide ones. */
export interface MemoryScope {
  readonly projectIds: readonly string[];
  readonly includeTenantWide: boolean;
}

/** Filters shared by list, search and export. */
export interface MemoryFilter {
  readonly scope: MemoryScope;
  readonly categories?: readonly MemoryCategory[];
  /** Memories carrying any of these tags. */
  readonly tags?: readonly string[];
  readonly authorAgentId?: string;
  readonly authorUserId?: string;
  readonly createdAfter?: Date;
  readonly createdBefore?: Date;
  /** When the fact happened, from (inclusive) and before (exclusive): a question's dates, as a filter. */
  readonly occurredFrom?: Date;
  readonly occurredBefore?: Date;
  /** `true`: only stale ones; `false`: hide stale ones; absent: include them (flagged). */
  readonly stale?: boolean;
  readonly pinned?: boolean;
  readonly includeArchived?: boolean;
  readonly includeSuperseded?: boolean;
}

/** A filter as a request gives it: the scope named, resolved against the project by the service. */
export type ListFilter = Omit<MemoryFilter, 'scope'> & { readonly scope?: 'project' | 'tenant' | 'all' };
