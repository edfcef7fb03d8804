import { type MemoryCategory } from './memory.types';
import { type Viewer } from './memory-viewer';

/**
 * Which memories a caller may see: those of some projects, the team ones (every project's),
 * and of those only the private ones `viewer` wrote or was given (a share or a tag rule). The
 * visibility rule as a value: other libraries pass it to memory's services, and only memory
 * turns it into SQL (memory-filter.sql.ts), on every read of the memory family.
 */
export interface MemoryScope {
  /** Memories whose project is one of these, whatever their scope (private ones still checked). */
  readonly projectIds: readonly string[];
  /** Also memories of scope `team`, from any project or none (what "tenant-wide" meant before scopes). */
  readonly includeTenantWide: boolean;
  /** Whose private memories show: a reader's identity, or `system` (jobs, admin backup) for all of them. */
  readonly viewer: Viewer;
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

/**
 * A filter as a request gives it, its `scope` resolved against the project by the service:
 * `project` the memories of this project (any memory scope, team ones that started here too),
 * `tenant` the team memories (every project's, and those without a project), `all` (default)
 * both. Not the memory's own `scope` field: private memories show to their author (and
 * grantees) under `project` and `all`.
 */
export type ListFilter = Omit<MemoryFilter, 'scope'> & { readonly scope?: 'project' | 'tenant' | 'all' };
