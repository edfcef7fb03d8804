import { Injectable } from '@nestjs/common';
import { type Author } from '@cairn/access';
import { SNAPSHOT_EXAMPLE as EX, SqlSnapshot } from '@cairn/db';
import { TenantDb } from '@cairn/tenancy';
import { type Proposal, type ProposalStatus } from './contract/proposal.types';
import { dedupeKey, type FactCandidate } from './fact-candidate';

const COLUMNS = `p.id, p.project_id AS "projectId", p.request_id AS "requestId", p.content, p.category, p.importance,
  p.confidence, p.tags, p.keywords, p.status, p.memory_id AS "memoryId",
  CASE WHEN p.decided_at IS NULL THEN NULL
    ELSE json_build_object('userId', p.decided_by_user_id, 'agentId', p.decided_by_agent_id) END AS "decidedBy",
  p.occurred_at AS "occurredAt", p.created_at AS "createdAt", p.decided_at AS "decidedAt"`;

/** Memory proposals of the current tenant; every call runs inside a tenant transaction. */
@Injectable()
export class ProposalsRepository {
  constructor(private readonly db: TenantDb) {}

  /**
   * Inserts the candidates that are not already proposed in the project (same text up to
   * case and punctuation, whatever the earlier proposal's fate), so extracting overlapping
   * transcripts does not ask the same question twice. Returns the new ids.
   */
  @SqlSnapshot({
    params: [
      EX.projectId,
      EX.requestId,
      [
        {
          id: EX.proposalId,
          content: 'Staging deploys go through Helm.',
          category: 'decision',
          importance: 4,
          keywords: ['helm'],
          tags: ['deploy'],
          confidence: 0.7,
        },
      ],
      EX.date,
    ],
  })
  async insertNew(
    projectId: string,
    requestId: string,
    candidates: readonly (FactCandidate & { id: string; confidence: number })[],
    /** When the transcript's conversation took place: the memories made from these occurred then. */
    occurredAt: Date,
  ): Promise<string[]> {
    if (candidates.length === 0) return [];
    const existing = await this.db.query<{ key: string }>(
      `SELECT k.key FROM memory_proposals p,
         LATERAL (SELECT btrim(lower(regexp_replace(p.content, '[^[:alnum:]]+', ' ', 'g'))) AS key) k
       WHERE p.project_id = $1 AND k.key = ANY($2::text[])`,
      [projectId, candidates.map((candidate) => dedupeKey(candidate.content))],
    );
    const known = new Set(existing.map((row) => row.key));
    const fresh = candidates.filter((candidate) => !known.has(dedupeKey(candidate.content)));
    for (const candidate of fresh) {
      await this.db.query(
        `INSERT INTO memory_proposals (id, project_id, request_id, content, category, importance, confidence, tags,
           keywords, status, occurred_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8::text[], $9::text[], 'pending', $10)`,
        [
          candidate.id,
          projectId,
          requestId,
          candidate.content,
          candidate.category,
          candidate.importance,
          candidate.confidence,
          candidate.tags,
          candidate.keywords,
          occurredAt,
        ],
      );
    }
    return fresh.map((candidate) => candidate.id);
  }

  @SqlSnapshot(
    { name: 'first page', params: [EX.projectId, 'pending', 20] },
    { name: 'after a proposal', params: [EX.projectId, 'pending', 20, EX.proposalId] },
  )
  list(projectId: string, status: ProposalStatus, limit: number, afterId?: string): Promise<Proposal[]> {
    const after = afterId
      ? `AND (p.created_at, p.id) < (SELECT a.created_at, a.id FROM memory_proposals a WHERE a.id = $4 AND a.project_id = $1)`
      : '';
    return this.db.query<Proposal>(
      `SELECT ${COLUMNS} FROM memory_proposals p WHERE p.project_id = $1 AND p.status = $2 ${after}
       ORDER BY p.created_at DESC, p.id DESC LIMIT $3`,
      afterId ? [projectId, status, limit + 1, afterId] : [projectId, status, limit + 1],
    );
  }

  @SqlSnapshot({ params: [EX.projectId, EX.proposalId] })
  async findForUpdate(projectId: string, id: string): Promise<Proposal | undefined> {
    const rows = await this.db.query<Proposal>(
      `SELECT ${COLUMNS} FROM memory_proposals p WHERE p.project_id = $1 AND p.id = $2 FOR UPDATE`,
      [projectId, id],
    );
    return rows[0];
  }

  @SqlSnapshot({
    params: [
      EX.proposalId,
      {
        status: 'accepted',
        memoryId: EX.memoryId,
        by: { userId: EX.userId, agentId: EX.agentId, tokenId: EX.tokenId },
      },
    ],
  })
  async decide(
    id: string,
    decision: { status: 'accepted' | 'rejected'; memoryId: string | null; by: Author },
  ): Promise<Proposal> {
    const rows = await this.db.query<Proposal>(
      `WITH p AS (
         UPDATE memory_proposals SET status = $2, memory_id = $3, decided_by_user_id = $4, decided_by_agent_id = $5,
           decided_at = now()
         WHERE id = $1 RETURNING *)
       SELECT ${COLUMNS} FROM p`,
      [id, decision.status, decision.memoryId, decision.by.userId, decision.by.agentId],
    );
    return rows[0];
  }
}
