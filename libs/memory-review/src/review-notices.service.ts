import { Injectable } from '@nestjs/common';
import { type Author } from '@cairn/access';
import { TenantTransaction } from '@cairn/tenancy';
import { type ReviewOutcome } from './contract/memory-review.types';
import { MemoryReviewsRepository } from './memory-reviews.repository';

/**
 * What the briefing tells a memory's author about reviews of their memories: each decided
 * review once. The briefing reads them inside its own transaction, fits what it can into its
 * budget, then marks only what it showed as told, so an outcome left out is told next time.
 */
@Injectable()
export class ReviewNotices {
  constructor(
    private readonly tx: TenantTransaction,
    private readonly reviews: MemoryReviewsRepository,
  ) {}

  /** Decided, untold reviews of the caller's memories in the project, oldest decision first. */
  untold(projectId: string, caller: Author, limit: number): Promise<ReviewOutcome[]> {
    return this.tx.run(() => this.reviews.untold(projectId, caller, limit));
  }

  markTold(ids: readonly string[]): Promise<void> {
    return this.tx.run(() => this.reviews.markTold(ids));
  }
}
