import { Injectable } from '@nestjs/common';
import { assertProjectAccess, type SessionPrincipal } from '@cairn/access';
import { MemoryReviews, viewerOf } from '@cairn/memory';
import { ProjectResolver } from '@cairn/projects';
import { TenantTransaction } from '@cairn/tenancy';
import { type QueuedReview, type ReviewStatus } from './contract/memory-review.types';

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
    private readonly reviews: MemoryReviews,
  ) {}

  list(
    projectSlug: string,
    principal: SessionPrincipal,
    query: { status: ReviewStatus; limit: number; cursor?: string },
  ): Promise<ReviewPage> {
    assertProjectAccess(principal, projectSlug);
    return this.tx.run(async () => {
      const project = await this.resolver.resolve(projectSlug);
      // As the reader may see them: a review naming someone's private memory is not listed.
      const rows = await this.reviews.list(project.id, viewerOf(principal), {
        status: query.status,
        limit: query.limit + 1,
        afterId: query.cursor,
      });
      const items = rows.slice(0, query.limit);
      const last = items[items.length - 1];
      return { items, nextCursor: rows.length > query.limit && last ? last.id : null };
    });
  }
}
