import { Injectable } from '@nestjs/common';
import { assertProjectAccess, authorOf, roleGrants, type SessionPrincipal } from '@cairn/access';
import { BadRequestError, ConflictError, ForbiddenError, NotFoundError } from '@cairn/common';
import { MemoryRecords, MemoryReviews, MemoryWriter, viewerOf } from '@cairn/memory';
import { ProjectResolver } from '@cairn/projects';
import { SecretRedaction } from '@cairn/secrets';
import { TenantTransaction } from '@cairn/tenancy';
import { type Decision, type Resolution, type Review, SCOPE_WIDTH } from './contract/memory-review.types';
import { redactReviewText } from './review-text';

export interface DecideInput {
  readonly decision?: Decision;
  readonly resolution?: Resolution;
  readonly reason: string;
}

/**
 * A reviewer (a project orchestrator or a tenant admin) decides a pending review. The decision
 * and what it changes commit together; a second decision of the same review is a conflict.
 */
@Injectable()
export class ReviewDecisions {
  constructor(
    private readonly tx: TenantTransaction,
    private readonly resolver: ProjectResolver,
    private readonly records: MemoryRecords,
    private readonly writer: MemoryWriter,
    private readonly reviews: MemoryReviews,
    private readonly secrets: SecretRedaction,
  ) {}

  async decide(projectSlug: string, principal: SessionPrincipal, id: string, input: DecideInput): Promise<Review> {
    assertProjectAccess(principal, projectSlug);
    // The route and the tool declare memory.review already; this keeps the rule with the use case.
    if (!roleGrants(principal.role, 'memory.review')) {
      throw new ForbiddenError('Only an orchestrator or an admin decides reviews', 'insufficient_role');
    }
    const reason = await redactReviewText(this.secrets, input.reason);
    return this.tx.run(async () => {
      const project = await this.resolver.resolve(projectSlug);
      // One the reviewer may see: a review naming someone's private memory is a 404 here, as in the queue.
      const review = await this.reviews.findForDecision(project.id, id, viewerOf(principal));
      if (!review) throw new NotFoundError('Review');
      if (review.status !== 'pending') {
        throw new ConflictError(`This review was already ${review.status}`, 'review_decided');
      }
      const outcome =
        review.kind === 'promotion'
          ? await this.promotion(review, principal, promotionDecision(input), reason.text)
          : await this.contradiction(projectSlug, review, principal, contradictionResolution(input));
      const decided = await this.reviews.decide(review.id, {
        ...outcome,
        reason: reason.text!,
        by: authorOf(principal),
      });
      await reason.keep(project.id, review.id, authorOf(principal));
      return decided;
    });
  }

  /** Approving changes the scope, with the memory as it was kept as a version (its scope included). */
  private async promotion(review: Review, principal: SessionPrincipal, decision: Decision, reason: string | null) {
    if (decision === 'reject') return { status: 'rejected' as const, resolution: null };
    // Locked first: the version entry records the row as it is when the scope changes.
    const row = await this.reviews.lockScope(review.memoryId);
    const memory = await this.records.findById(review.memoryId);
    if (!memory || memory.deletedAt || !row) {
      throw new ConflictError('The memory was deleted since it was proposed; reject the promotion', 'memory_gone');
    }
    if (SCOPE_WIDTH[row.scope] >= SCOPE_WIDTH[review.toScope!]) {
      throw new ConflictError(`The memory is already ${row.scope}; reject the promotion`, 'scope_not_wider');
    }
    const why = `promoted from ${row.scope} to ${review.toScope} (review ${review.id})${reason ? `: ${reason}` : ''}`;
    await this.records.recordVersion(memory, authorOf(principal), why.slice(0, 1_200), { scope: row.scope });
    await this.reviews.setScope(review.memoryId, review.toScope!);
    return { status: 'approved' as const, resolution: null };
  }

  /** keep_both changes nothing; supersede goes through MemoryWriter's supersede path; reject_new archives. */
  private async contradiction(
    projectSlug: string,
    review: Review,
    principal: SessionPrincipal,
    resolution: Resolution,
  ) {
    if (resolution === 'supersede') {
      await this.writer.supersedeAfterReview(projectSlug, principal, review.memoryId, review.otherMemoryId!);
    } else if (resolution === 'reject_new') {
      await this.reviews.archive(review.memoryId);
    }
    return { status: resolution === 'reject_new' ? ('rejected' as const) : ('approved' as const), resolution };
  }
}

function promotionDecision(input: DecideInput): Decision {
  if (input.resolution !== undefined || input.decision === undefined) {
    throw new BadRequestError(
      'A promotion is decided with "decision": "approve" or "reject" (no resolution)',
      undefined,
      'decision_required',
    );
  }
  return input.decision;
}

/** A contradiction needs a resolution; a decision given with it must agree (reject is reject_new). */
function contradictionResolution(input: DecideInput): Resolution {
  const agrees = input.decision === undefined || (input.decision === 'reject') === (input.resolution === 'reject_new');
  if (input.resolution === undefined || !agrees) {
    throw new BadRequestError(
      'A contradiction is resolved with "resolution": keep_both, supersede or reject_new ' +
        '(a decision, if given, must agree: reject goes with reject_new)',
      undefined,
      'resolution_required',
    );
  }
  return input.resolution;
}
