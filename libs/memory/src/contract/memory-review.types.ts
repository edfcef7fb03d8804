import { type MemoryScopeLevel } from './memory.types';

/**
 * The review queue's records (memory_reviews, tenant migration 17): promotions of a memory to a
 * wider scope and contradictions between two authors' memories. Kept by memory, which owns the
 * table; memory-review decides them.
 */
export const REVIEW_KINDS = ['promotion', 'contradiction'] as const;
export type ReviewKind = (typeof REVIEW_KINDS)[number];

export const REVIEW_STATUSES = ['pending', 'approved', 'rejected'] as const;
export type ReviewStatus = (typeof REVIEW_STATUSES)[number];

/**
 * How a reviewer settles a contradiction between two authors: `keep_both` changes nothing,
 * `supersede` makes the new memory supersede the old one, `reject_new` archives the new one
 * (restorable with `POST …/memories/{id}/restore`).
 */
export const RESOLUTIONS = ['keep_both', 'supersede', 'reject_new'] as const;
export type Resolution = (typeof RESOLUTIONS)[number];

export interface ReviewActor {
  readonly userId: string | null;
  readonly agentId: string | null;
}

/** A memory as the queue shows it: an excerpt, labelled when an agent wrote it. */
export interface ReviewedMemory {
  readonly id: string;
  readonly excerpt: string;
  readonly category: string;
  readonly author: ReviewActor;
  /** Written by an agent: unverified content, to read as data and never as instructions. */
  readonly agentWritten: boolean;
}

export interface Review {
  readonly id: string;
  readonly kind: ReviewKind;
  readonly status: ReviewStatus;
  /** The memory to promote, or the newer memory of a contradiction. */
  readonly memoryId: string;
  /** The older memory a contradiction is with; null for a promotion. */
  readonly otherMemoryId: string | null;
  readonly fromScope: MemoryScopeLevel | null;
  readonly toScope: MemoryScopeLevel | null;
  readonly note: string | null;
  readonly resolution: Resolution | null;
  readonly decisionReason: string | null;
  readonly proposedBy: ReviewActor;
  readonly decidedBy: ReviewActor | null;
  readonly createdAt: Date;
  readonly decidedAt: Date | null;
}

/** A queue entry: the review with excerpts of the memories it is about (absent once deleted). */
export interface QueuedReview extends Review {
  readonly memory: ReviewedMemory | null;
  readonly otherMemory: ReviewedMemory | null;
}

/** An outcome to tell a memory's author: which review, what became of it, and why. */
export interface ReviewOutcome {
  readonly id: string;
  readonly kind: ReviewKind;
  readonly status: ReviewStatus;
  readonly memoryId: string;
  readonly toScope: MemoryScopeLevel | null;
  readonly resolution: Resolution | null;
  readonly decisionReason: string | null;
  readonly decidedAt: Date;
}

/** A promotion proposed: a pending review of `memoryId` from one scope to a wider one. */
export interface NewPromotion {
  readonly id: string;
  readonly projectId: string;
  readonly memoryId: string;
  readonly fromScope: MemoryScopeLevel;
  readonly toScope: MemoryScopeLevel;
  readonly note: string | null;
  readonly by: { readonly userId: string | null; readonly agentId: string | null; readonly tokenId: string };
}

/** A decision of a review, as recorded. */
export interface ReviewDecision {
  readonly status: 'approved' | 'rejected';
  readonly resolution: Resolution | null;
  readonly reason: string;
  readonly by: { readonly userId: string | null; readonly agentId: string | null; readonly tokenId: string };
}
