import { Injectable } from '@nestjs/common';
import { assertProjectAccess, type SessionPrincipal } from '@cairn/access';
import { ProjectResolver } from '@cairn/projects';
import { TenantTransaction } from '@cairn/tenancy';
import { type QueuedReview, type ReviewStatus } from './contract/memory-review.types';
import { MemoryReviewsRepository } from './memory-reviews.repository';

export interface ReviewPage {
  readonly items: QueuedReview[];
  readonly nextCursor: string | null;
}

/** The project's review queue for reviewers: pending reviews oldest first (or decided ones), a page at a time. */
@Injectable()
export class ReviewQueue {
  constructor(
    private readonly tx: TenantTransaction,
    private readonly resolver: ProjectResolver,
    private readonly reviews: MemoryReviewsRepository,
  ) {}

  list(
    projectSlug: string,
    principal: SessionPrincipal,
    query: { status: ReviewStatus; limit: number; cursor?: string },
  ): Promise<ReviewPage> {
    assertProjectAccess(principal, projectSlug);
    return this.tx.run(async () => {
      const project = await this.resolver.resolve(projectSlug);
      const rows = await this.reviews.list(project.id, query.status, query.limit + 1, query.cursor);
      const items = rows.slice(0, query.limit);
      const last = items[items.length - 1];
      return { items, nextCursor: rows.length > query.limit && last ? last.id : null };
    });
  }
}
