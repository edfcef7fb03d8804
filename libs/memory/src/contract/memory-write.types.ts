import { type SecretTypeCount } from '@cairn/secret-detection';
import { type ContradictionWarning, type Memory, type MemoryFields, type MemoryScopeLevel } from './memory.types';

export interface StoreMemoryInput extends MemoryFields {
  /**
   * Who sees it (MEMORY_SCOPES); `tenant` stores a team memory without a project (tenant-wide,
   * the spelling from before scopes). Absent: `project`, or `private` for agents when the
   * tenant's `agentDefaultScope` says so.
   */
  readonly scope?: MemoryScopeLevel | 'tenant';
  /** Older memories this one replaces: they leave default recall but keep their history. */
  readonly supersedes: readonly string[];
  /** Backdating for imports of older knowledge; defaults to now. */
  readonly createdAt?: Date;
  /** Seal the whole content: the row keeps only its placeholder (see SecretRedaction.sealWhole). */
  readonly sensitive?: boolean;
}

export interface UpdateMemoryInput extends Partial<MemoryFields> {
  readonly reason?: string;
  /** Refuse (409 version_conflict) unless the memory is at this version. */
  readonly expectedVersion?: number;
  readonly supersedes?: readonly string[];
  /** Absent: a sensitive memory stays sensitive. `false` turns it off and then needs new content. */
  readonly sensitive?: boolean;
}

export interface WriteResult {
  readonly memory: Memory;
  readonly warnings: ContradictionWarning[];
  /** `queued` once an embedding job is on its way; `deferred` if Redis was unreachable (a sweep catches up). */
  readonly embedding: 'queued' | 'deferred' | 'unchanged';
  /** Secrets replaced by placeholders in content, tags and keywords (types and counts); empty when none. */
  readonly redacted: SecretTypeCount[];
  /** True when an idempotency key named an earlier store: the memory it stored, nothing new written. */
  readonly replayed?: boolean;
}
