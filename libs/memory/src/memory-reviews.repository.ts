import { SNAPSHOT_EXAMPLE as EX, SqlParams, SqlSnapshot } from '@cairn/db';
import { Injectable } from '@nestjs/common';
import { type Author } from '@cairn/access';
import { TenantDb } from '@cairn/tenancy';
import {
  type NewPromotion,
  type QueuedReview,
  type Review,
  type ReviewDecision,
  type ReviewOutcome,
  type ReviewStatus,
} from './contract/memory-review.types';
import { type MemoryScopeLevel } from './contract/memory.types';
import { SYSTEM_VIEWER, type Viewer } from './contract/memory-viewer';
import { privacySql } from './memory-filter.sql';
import { authoredBySql } from './memory-ownership';
import { identitySql } from './memory-shares.sql';
import { EXAMPLE_READER } from './memory.sql-examples';

const COLUMNS = `r.id, r.kind, r.status, r.memory_id AS "memoryId", r.other_memory_id AS "otherMemoryId",
  r.from_scope AS "fromScope", r.to_scope AS "toScope", r.note, r.resolution, r.decision_reason AS "decisionReason",
  json_build_object('userId', r.proposed_by_user_id, 'agentId', r.proposed_by_agent_id) AS "proposedBy",
  CASE WHEN r.decided_at IS NULL THEN NULL
    ELSE json_build_object('userId', r.decided_by_user_id, 'agentId', r.decided_by_agent_id) END AS "decidedBy",
  r.created_at AS "createdAt", r.decided_at AS "decidedAt"`;

/** A memory of a review as the queue shows it: an excerpt, never the whole text. */
const excerpt = (alias: string) => `CASE WHEN ${alias}.id IS NULL THEN NULL ELSE json_build_object(
    'id', ${alias}.id, 'excerpt', left(${alias}.content, 300), 'category', ${alias}.category,
    'author', json_build_object('userId', ${alias}.author_user_id, 'agentId', ${alias}.author_agent_id),
    'agentWritten', ${alias}.author_agent_id IS NOT NULL) END`;

/**
 * Review `r` (its memories `m` and `o` joined) is one `viewer` may see: each memory it names
 * is gone or visible to the viewer by memory's privacy rule, except a promotion's own memory,
 * which its author put before the project's reviewers by proposing it. So a contradiction
 * with someone's private memory is never named in another reader's queue.
 */
function reviewVisibleSql(viewer: Viewer, params: SqlParams): string {
  const seen = (alias: string) => `(${alias}.id IS NULL OR ${privacySql(viewer, params, alias)})`;
  return `(r.kind = 'promotion' OR ${seen('m')}) AND ${seen('o')}`;
}

const REVIEW_FROM = `memory_reviews r
  LEFT JOIN memories m ON m.id = r.memory_id AND m.deleted_at IS NULL
  LEFT JOIN memories o ON o.id = r.other_memory_id AND o.deleted_at IS NULL`;

/** The review queue (memory_reviews) and the scope column it changes; inside tenant transactions. */
@Injectable()
export class MemoryReviewsRepository {
  constructor(private readonly db: TenantDb) {}

  /** The memory's scope, its row locked until the transaction ends (a promotion decides on it). */
  @SqlSnapshot({ params: [EX.memoryId] })
  async lockScope(memoryId: string): Promise<{ scope: MemoryScopeLevel } | undefined> {
    const rows = await this.db.query<{ scope: MemoryScopeLevel }>(
      'SELECT scope FROM memories WHERE id = $1 FOR UPDATE',
      [memoryId],
    );
    return rows[0];
  }

  /** Undefined when a promotion of this memory is already pending (one at a time). */
  @SqlSnapshot({
    params: [
      {
        id: EX.reviewId,
        projectId: EX.projectId,
        memoryId: EX.memoryId,
        fromScope: 'private',
        toScope: 'project',
        note: 'the team should know',
        by: EXAMPLE_READER,
      },
    ],
  })
  async insertPromotion(promotion: NewPromotion): Promise<Review | undefined> {
    const rows = await this.db.query<Review>(
      `WITH r AS (
         INSERT INTO memory_reviews (id, project_id, kind, memory_id, from_scope, to_scope, note,
           proposed_by_user_id, proposed_by_agent_id, proposed_by_token_id)
         VALUES ($1, $2, 'promotion', $3, $4, $5, $6, $7, $8, $9)
         ON CONFLICT DO NOTHING RETURNING *)
       SELECT ${COLUMNS} FROM r`,
      [
        promotion.id,
        promotion.projectId,
        promotion.memoryId,
        promotion.fromScope,
        promotion.toScope,
        promotion.note,
        promotion.by.userId,
        promotion.by.agentId,
        promotion.by.tokenId,
      ],
    );
    return rows[0];
  }

  /** The review in this project that `viewer` may see (reviewVisibleSql), locked until the decision commits. */
  @SqlSnapshot(
    { name: 'a reader', params: [EX.projectId, EX.reviewId, EXAMPLE_READER] },
    { name: 'the system', params: [EX.projectId, EX.reviewId, SYSTEM_VIEWER] },
  )
  async findForUpdate(projectId: string, id: string, viewer: Viewer): Promise<Review | undefined> {
    const params = new SqlParams();
    const where = `r.project_id = ${params.add(projectId)} AND r.id = ${params.add(id)}`;
    const rows = await this.db.query<Review>(
      `SELECT ${COLUMNS} FROM ${REVIEW_FROM} WHERE ${where} AND ${reviewVisibleSql(viewer, params)} FOR UPDATE OF r`,
      params.values,
    );
    return rows[0];
  }

  @SqlSnapshot({
    params: [EX.reviewId, { status: 'approved', resolution: null, reason: 'agreed', by: EXAMPLE_READER }],
  })
  async decide(id: string, decision: ReviewDecision): Promise<Review> {
    const rows = await this.db.query<Review>(
      `WITH r AS (
         UPDATE memory_reviews SET status = $2, resolution = $3, decision_reason = $4, decided_by_user_id = $5,
           decided_by_agent_id = $6, decided_by_token_id = $7, decided_at = now()
         WHERE id = $1 RETURNING *)
       SELECT ${COLUMNS} FROM r`,
      [
        id,
        decision.status,
        decision.resolution,
        decision.reason,
        decision.by.userId,
        decision.by.agentId,
        decision.by.tokenId,
      ],
    );
    return rows[0];
  }

  /** The promotion itself: a new scope is a new version of the memory (the change feed sees it). */
  @SqlSnapshot({ params: [EX.memoryId, 'team'] })
  async setScope(memoryId: string, scope: MemoryScopeLevel): Promise<void> {
    await this.db.query(
      `UPDATE memories SET scope = $2, version = version + 1, updated_at = now(), change_xid = pg_current_xact_id()
       WHERE id = $1`,
      [memoryId, scope],
    );
  }

  /**
   * `reject_new`: the memory is archived (out of recall and lists, restorable by its author or
   * a maintainer), the gentlest of the existing ways out; a delete would lose it for good.
   */
  @SqlSnapshot({ params: [EX.memoryId] })
  async archive(memoryId: string): Promise<void> {
    await this.db.query(
      `UPDATE memories SET archived_at = now(), updated_at = now(), change_xid = pg_current_xact_id()
       WHERE id = $1 AND archived_at IS NULL`,
      [memoryId],
    );
  }

  /**
   * The reviews of a project `viewer` may see (reviewVisibleSql), oldest first (a queue);
   * keyset pagination on (created_at, id) after the last id seen.
   */
  @SqlSnapshot(
    { name: 'first page', params: [EX.projectId, EXAMPLE_READER, { status: 'pending', limit: 21 }] },
    {
      name: 'after a review',
      params: [EX.projectId, EXAMPLE_READER, { status: 'pending', limit: 21, afterId: EX.reviewId }],
    },
  )
  list(
    projectId: string,
    viewer: Viewer,
    page: { readonly status: ReviewStatus; readonly limit: number; readonly afterId?: string },
  ): Promise<QueuedReview[]> {
    const params = new SqlParams();
    const project = params.add(projectId);
    const after = page.afterId
      ? `AND (r.created_at, r.id) > (SELECT a.created_at, a.id FROM memory_reviews a
           WHERE a.id = ${params.add(page.afterId)} AND a.project_id = ${project})`
      : '';
    return this.db.query<QueuedReview>(
      `SELECT ${COLUMNS}, ${excerpt('m')} AS memory, ${excerpt('o')} AS "otherMemory"
       FROM ${REVIEW_FROM}
       WHERE r.project_id = ${project} AND r.status = ${params.add(page.status)} ${after}
         AND ${reviewVisibleSql(viewer, params)}
       ORDER BY r.created_at, r.id LIMIT ${params.add(page.limit)}`,
      params.values,
    );
  }

  /** Decided reviews of the caller's own memories in this project that no briefing has told yet. */
  @SqlSnapshot({ params: [EX.projectId, EXAMPLE_READER, 10] })
  untold(projectId: string, caller: Author, limit: number): Promise<ReviewOutcome[]> {
    const params = new SqlParams();
    const project = params.add(projectId);
    const mine = authoredBySql('m', identitySql(caller, params));
    return this.db.query<ReviewOutcome>(
      `SELECT r.id, r.kind, r.status, r.memory_id AS "memoryId", r.to_scope AS "toScope", r.resolution,
         r.decision_reason AS "decisionReason", r.decided_at AS "decidedAt"
       FROM memory_reviews r JOIN memories m ON m.id = r.memory_id
       WHERE r.project_id = ${project} AND r.status <> 'pending' AND r.author_notified_at IS NULL AND ${mine}
       ORDER BY r.decided_at, r.id LIMIT ${params.add(limit)}`,
      params.values,
    );
  }

  @SqlSnapshot({ params: [[EX.reviewId]] })
  async markTold(ids: readonly string[]): Promise<void> {
    if (ids.length === 0) return;
    await this.db.query(
      `UPDATE memory_reviews SET author_notified_at = now() WHERE id = ANY($1::uuid[]) AND author_notified_at IS NULL`,
      [ids],
    );
  }
}
