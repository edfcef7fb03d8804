import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { assertProjectAccess, authorOf, type SessionPrincipal } from '@cairn/access';
import { BadRequestError, ConflictError, ForbiddenError, NotFoundError } from '@cairn/common';
import { isAuthor, MemoryRecords, MemoryReviews, orNotFound, projectScope, viewerOf } from '@cairn/memory';
import { ProjectResolver } from '@cairn/projects';
import { SecretRedaction } from '@cairn/secrets';
import { TenantTransaction } from '@cairn/tenancy';
import { type MemoryVisibility, type Review, SCOPE_WIDTH } from './contract/memory-review.types';
import { redactReviewText } from './review-text';

export interface PromoteInput {
  readonly toScope: MemoryVisibility;
  readonly note?: string;
}

/**
 * Proposing a memory for a wider scope (issue 14 §1): anyone who can see it and write in the
 * project files a pending promotion; a reviewer decides it (ReviewDecisions).
 */
@Injectable()
export class MemoryPromotions {
  constructor(
    private readonly tx: TenantTransaction,
    private readonly resolver: ProjectResolver,
    private readonly records: MemoryRecords,
    private readonly reviews: MemoryReviews,
    private readonly secrets: SecretRedaction,
  ) {}

  /**
   * 404 for a memory the caller cannot see (another project's, deleted, or someone else's
   * private one not shared with the caller: no hint that it exists); 403 for a private one a
   * share shows the caller but that it did not write; 400 for a scope that is not wider; 409
   * while a promotion of the memory is pending (one at a time: decide it first).
   */
  async propose(projectSlug: string, principal: SessionPrincipal, memoryId: string, input: PromoteInput) {
    assertProjectAccess(principal, projectSlug);
    const note = await redactReviewText(this.secrets, input.note);
    return this.tx.run(async (): Promise<Review> => {
      const project = await this.resolver.resolve(projectSlug);
      const row = await this.reviews.lockScope(memoryId);
      // Visible to the caller by memory's one rule: another's private memory is a 404, a shared one is not.
      const memory = orNotFound(await this.records.findVisible(memoryId, projectScope(project, viewerOf(principal))));
      if (!row) throw new NotFoundError('Memory');
      // A share lets its grantee read a private memory, never widen it: that stays its author's call.
      if (row.scope === 'private' && !isAuthor(principal, memory)) {
        throw new ForbiddenError('Only the author of a private memory may propose its promotion', 'not_owner');
      }
      if (SCOPE_WIDTH[input.toScope] <= SCOPE_WIDTH[row.scope]) {
        throw new BadRequestError(
          `The memory is already ${row.scope}: a promotion goes to a wider scope (private < project < team)`,
          undefined,
          'scope_not_wider',
        );
      }
      const id = randomUUID();
      const review = await this.reviews.propose({
        id,
        projectId: project.id,
        memoryId: memory.id,
        fromScope: row.scope,
        toScope: input.toScope,
        note: note.text,
        by: authorOf(principal),
      });
      if (!review) {
        throw new ConflictError(
          'A promotion of this memory is already pending; it must be decided first (see review_queue)',
          'promotion_pending',
        );
      }
      await note.keep(project.id, id, authorOf(principal));
      return review;
    });
  }
}
