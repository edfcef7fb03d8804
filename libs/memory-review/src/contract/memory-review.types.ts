import { MEMORY_SCOPES, type MemoryScopeLevel } from '@cairn/memory';

// The review queue's records are memory's (libs/memory owns memory_reviews): their types, as
// this library's adapters and users name them.
export {
  type QueuedReview,
  type Resolution,
  RESOLUTIONS,
  type Review,
  type ReviewActor,
  type ReviewedMemory,
  type ReviewKind,
  REVIEW_KINDS,
  type ReviewOutcome,
  type ReviewStatus,
  REVIEW_STATUSES,
} from '@cairn/memory';

/** Where a memory is visible (migration 0017): its author only, its project, or every project of the tenant. */
export { MEMORY_SCOPES };
export type MemoryVisibility = MemoryScopeLevel;

/** How wide each scope is: a promotion must go to a wider one. */
export const SCOPE_WIDTH: Readonly<Record<MemoryVisibility, number>> = { private: 0, project: 1, team: 2 };

export const DECISIONS = ['approve', 'reject'] as const;
export type Decision = (typeof DECISIONS)[number];
