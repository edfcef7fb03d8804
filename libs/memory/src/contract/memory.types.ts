export const MEMORY_CATEGORIES = [
  'fact',
  'preference',
  'decision',
  'pattern',
  'bug',
  'todo',
  'person',
  'architecture',
  'other',
] as const;
export type MemoryCategory = (typeof MEMORY_CATEGORIES)[number];

export const RELATION_TYPES = [
  'depends_on',
  'contradicts',
  'elaborates',
  'related_to',
  'part_of',
  'supersedes',
] as const;
export type RelationType = (typeof RELATION_TYPES)[number];

/**
 * Who sees a memory (a memory's `scope`): `private` its author and those it is shared with,
 * `project` everyone who may read its project, `team` every project of the tenant. A memory
 * without a project (tenant-wide) is always `team`.
 */
export const MEMORY_SCOPES = ['private', 'project', 'team'] as const;
export type MemoryScopeLevel = (typeof MEMORY_SCOPES)[number];

/** A typed link between two memories; one per (from, to, type). */
export interface MemoryRelation {
  readonly id: string;
  readonly fromId: string;
  readonly toId: string;
  readonly type: RelationType;
  readonly note: string | null;
  readonly createdBy: { readonly userId: string | null; readonly agentId: string | null };
  readonly createdAt: Date;
}

export interface SourceRef {
  readonly path: string;
  readonly line: number | null;
  /** Hash of the source file's content when the fact was written; `verify` compares against it. */
  readonly contentHash: string | null;
}

/** A long-term memory as services and the API see it. */
export interface Memory {
  readonly id: string;
  /** Project slug, or null for a tenant-wide memory. */
  readonly project: string | null;
  readonly projectId: string | null;
  /** Who sees it; see MEMORY_SCOPES. */
  readonly scope: MemoryScopeLevel;
  readonly content: string;
  readonly category: MemoryCategory;
  readonly tags: string[];
  readonly keywords: string[];
  readonly importance: number;
  readonly confidence: number;
  readonly source: SourceRef | null;
  readonly stale: boolean;
  readonly verifiedAt: Date | null;
  readonly author: { readonly userId: string | null; readonly agentId: string | null; readonly tokenId: string | null };
  readonly pinned: boolean;
  /** The content is sealed: `content` is only its placeholder `[SECRET:sensitive:<id>]`. */
  readonly sensitive: boolean;
  readonly version: number;
  readonly supersededBy: string | null;
  readonly accessCount: number;
  readonly lastAccessedAt: Date | null;
  readonly archivedAt: Date | null;
  readonly deletedAt: Date | null;
  /** When the fact happened or was said; the write time unless given. */
  readonly occurredAt: Date;
  readonly createdAt: Date;
  readonly updatedAt: Date;
  readonly contentHash: string;
  /** True once a vector of the active model exists for the current content. */
  readonly embedded: boolean;
}

/** The writable fields of a memory. */
export interface MemoryFields {
  readonly content: string;
  readonly category: MemoryCategory;
  readonly tags: readonly string[];
  readonly keywords: readonly string[];
  readonly importance: number;
  readonly confidence: number;
  readonly source: { path: string; line?: number; contentHash?: string } | null;
  readonly pinned: boolean;
  /** When the fact happened or was said; absent: the write time (store) or unchanged (update). */
  readonly occurredAt?: Date;
}

export interface ContradictionWarning {
  readonly memoryId: string;
  readonly content: string;
  readonly reason: string;
  readonly strength: 'weak' | 'strong';
  /** True when a `contradicts` relation was recorded (strong cases). */
  readonly recorded: boolean;
}

/** A memory as a briefing lists what is new: the gist, not the whole record. */
export interface RecentMemory {
  readonly id: string;
  readonly content: string;
  readonly category: string;
  readonly importance: number;
  readonly scope: MemoryScopeLevel;
  readonly agentId: string | null;
  readonly createdAt: Date;
}
