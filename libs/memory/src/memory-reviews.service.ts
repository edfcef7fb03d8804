import { Injectable } from '@nestjs/common';
import { type Author } from '@cairn/access';
import { TenantTransaction } from '@cairn/tenancy';
import {
  type NewPromotion,
  type QueuedReview,
  type Review,
  type ReviewDecision,
  type ReviewOutcome,
  type ReviewStatus,
} from './contract/memory-review.types';
import { type MemoryScopeLevel } from './contract/memory.types';
import { type Viewer } from './contract/memory-viewer';
import { MemoryReviewsRepository } from './memory-reviews.repository';

/**
 * The review queue's records for memory-review's use cases (promotions, decisions, the queue,
 * the briefing's outcomes). Each call joins the caller's tenant transaction; the queue and a
 * decision see only reviews whose memories the reader may see (a promotion's own memory
 * excepted: its author submitted it to the reviewers).
 */
@Injectable()
export class MemoryReviews {
  constructor(
    private readonly tx: TenantTransaction,
    private readonly reviews: MemoryReviewsRepository,
  ) {}

  /** The memory's scope, its row locked until the transaction ends; undefined when there is no such memory. */
  lockScope(memoryId: string): Promise<{ scope: MemoryScopeLevel } | undefined> {
    return this.tx.run(() => this.reviews.lockScope(memoryId));
  }

  /** Undefined when a promotion of this memory is already pending (one at a time). */
  propose(promotion: NewPromotion): Promise<Review | undefined> {
    return this.tx.run(() => this.reviews.insertPromotion(promotion));
  }

  /** The review of this project that `viewer` may see, locked until the decision commits. */
  findForDecision(projectId: string, id: string, viewer: Viewer): Promise<Review | undefined> {
    return this.tx.run(() => this.reviews.findForUpdate(projectId, id, viewer));
  }

  decide(id: string, decision: ReviewDecision): Promise<Review> {
    return this.tx.run(() => this.reviews.decide(id, decision));
  }

  /** An approved promotion: the memory's new scope, a new version of it. */
  setScope(memoryId: string, scope: MemoryScopeLevel): Promise<void> {
    return this.tx.run(() => this.reviews.setScope(memoryId, scope));
  }

  /** A rejected new memory of a contradiction: archived, restorable. */
  archive(memoryId: string): Promise<void> {
    return this.tx.run(() => this.reviews.archive(memoryId));
  }

  /** A page of the project's queue as `viewer` may see it, oldest first. */
  list(
    projectId: string,
    viewer: Viewer,
    page: { readonly status: ReviewStatus; readonly limit: number; readonly afterId?: string },
  ): Promise<QueuedReview[]> {
    return this.tx.run(() => this.reviews.list(projectId, viewer, page));
  }

  /** Decided, untold reviews of the caller's memories in the project, oldest decision first. */
  untold(projectId: string, caller: Author, limit: number): Promise<ReviewOutcome[]> {
    return this.tx.run(() => this.reviews.untold(projectId, caller, limit));
  }

  markTold(ids: readonly string[]): Promise<void> {
    return this.tx.run(() => this.reviews.markTold(ids));
  }
}
