import { Injectable } from '@nestjs/common';
import { type Author } from '@cairn/access';
import { MemoryReviews } from '@cairn/memory';
import { type ReviewOutcome } from './contract/memory-review.types';

/**
 * What the briefing tells a memory's author about reviews of their memories: each decided
 * review once. The briefing reads them inside its own transaction, fits what it can into its
 * budget, then marks only what it showed as told, so an outcome left out is told next time.
 */
@Injectable()
export class ReviewNotices {
  constructor(private readonly reviews: MemoryReviews) {}

  /** Decided, untold reviews of the caller's memories in the project, oldest decision first. */
  untold(projectId: string, caller: Author, limit: number): Promise<ReviewOutcome[]> {
    return this.reviews.untold(projectId, caller, limit);
  }

  markTold(ids: readonly string[]): Promise<void> {
    return this.reviews.markTold(ids);
  }
}
