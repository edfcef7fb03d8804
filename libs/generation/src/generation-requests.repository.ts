import { Injectable } from '@nestjs/common';
import { type Author } from '@cairn/access';
import { ProjectResolver } from '@cairn/projects';
import { SNAPSHOT_EXAMPLE as EX, SqlSnapshot } from '@cairn/db';
import { TenantDb } from '@cairn/tenancy';
import {
  type GenerationJobRow,
  type GenerationKind,
  type GenerationRequestRow,
} from './contract/generation-request.types';

const COLUMNS = `r.id, r.project_id AS "projectId", r.kind, r.status, r.result, r.generated_by AS "generatedBy",
  r.flagged_injection AS "flaggedInjection", r.error,
  json_build_object('userId', r.requested_by_user_id, 'agentId', r.requested_by_agent_id,
    'tokenId', r.requested_by_token_id) AS "requestedBy",
  r.created_at AS "createdAt", r.completed_at AS "completedAt"`;

/** A retried POST of the same text by the same requester within this window is the same request. */
const REUSE_WINDOW = `interval '1 day'`;

/** Generation requests of the current tenant; every call runs inside a tenant transaction. */
@Injectable()
export class GenerationRequestsRepository {
  constructor(
    private readonly db: TenantDb,
    private readonly projects: ProjectResolver,
  ) {}

  @SqlSnapshot({
    params: [
      {
        id: EX.newId,
        projectId: EX.projectId,
        kind: 'session_summary',
        input: 'transcript',
        inputHash: EX.contentHash,
        requestedBy: { userId: EX.userId, agentId: EX.agentId, tokenId: EX.tokenId },
        occurredAt: EX.date,
      },
    ],
  })
  async insert(row: {
    id: string;
    projectId: string;
    kind: GenerationKind;
    input: string;
    inputHash: string;
    requestedBy: Author;
    occurredAt?: Date;
  }): Promise<GenerationRequestRow> {
    const rows = await this.db.query<GenerationRequestRow>(
      `INSERT INTO generation_requests AS r (id, project_id, kind, input, input_hash, status,
         requested_by_user_id, requested_by_agent_id, requested_by_token_id, occurred_at)
       VALUES ($1, $2, $3, $4, $5, 'pending', $6, $7, $8, $9)
       RETURNING ${COLUMNS}`,
      [
        row.id,
        row.projectId,
        row.kind,
        row.input,
        row.inputHash,
        row.requestedBy.userId,
        row.requestedBy.agentId,
        row.requestedBy.tokenId,
        row.occurredAt ?? null,
      ],
    );
    return rows[0];
  }

  /**
   * The same requester's pending or finished request for the same text, if recent: a client
   * retrying its POST then gets one summary (one set of proposals), not two. Serialised per
   * input by an advisory lock, so two concurrent retries cannot both insert.
   */
  @SqlSnapshot({
    params: [
      EX.projectId,
      'session_summary',
      EX.contentHash,
      { userId: EX.userId, agentId: EX.agentId, tokenId: EX.tokenId },
      EX.date,
    ],
  })
  async findReusable(
    projectId: string,
    kind: GenerationKind,
    inputHash: string,
    requester: Author,
    occurredAt?: Date,
  ): Promise<GenerationRequestRow | undefined> {
    await this.db.query('SELECT pg_advisory_xact_lock(hashtext($1), hashtext($2))', [
      projectId,
      `${kind}:${inputHash}`,
    ]);
    const rows = await this.db.query<GenerationRequestRow>(
      `SELECT ${COLUMNS} FROM generation_requests r
       WHERE r.project_id = $1 AND r.kind = $2 AND r.input_hash = $3 AND r.status IN ('pending', 'done')
         AND r.created_at > now() - ${REUSE_WINDOW}
         AND r.requested_by_user_id IS NOT DISTINCT FROM $4 AND r.requested_by_agent_id IS NOT DISTINCT FROM $5
         AND r.requested_by_token_id IS NOT DISTINCT FROM $6 AND r.occurred_at IS NOT DISTINCT FROM $7
       ORDER BY r.created_at DESC LIMIT 1`,
      [projectId, kind, inputHash, requester.userId, requester.agentId, requester.tokenId, occurredAt ?? null],
    );
    return rows[0];
  }

  @SqlSnapshot({ params: [EX.projectId, EX.requestId] })
  async findInProject(projectId: string, id: string): Promise<GenerationRequestRow | undefined> {
    const rows = await this.db.query<GenerationRequestRow>(
      `SELECT ${COLUMNS} FROM generation_requests r WHERE r.project_id = $1 AND r.id = $2`,
      [projectId, id],
    );
    return rows[0];
  }

  /** For a job: the row with its input and project slug; `lock` holds it until the transaction ends. */
  @SqlSnapshot({ name: 'read', params: [EX.requestId] }, { name: 'locked', params: [EX.requestId, true] })
  async findForJob(id: string, lock = false): Promise<GenerationJobRow | undefined> {
    const rows = await this.db.query<Omit<GenerationJobRow, 'projectSlug'>>(
      `SELECT ${COLUMNS}, r.input, r.occurred_at AS "occurredAt"
       FROM generation_requests r
       WHERE r.id = $1 ${lock ? 'FOR UPDATE OF r' : ''}`,
      [id],
    );
    const row = rows[0];
    if (!row) return undefined;
    // The project's slug is @cairn/projects' to say; a request always belongs to a project.
    const slug = (await this.projects.slugsOf([row.projectId])).get(row.projectId);
    return slug === undefined ? undefined : { ...row, projectSlug: slug };
  }

  /** Records the outcome and drops the input, which was kept only to be processed. */
  @SqlSnapshot({
    params: [
      EX.requestId,
      { result: { summary: 'Deploys moved to Helm.' }, generatedBy: 'ollama:llama3.2', flaggedInjection: false },
    ],
  })
  async complete(
    id: string,
    outcome: { result: Record<string, unknown>; generatedBy: string; flaggedInjection: boolean },
  ): Promise<void> {
    await this.db.query(
      `UPDATE generation_requests SET status = 'done', result = $2::jsonb, generated_by = $3,
         flagged_injection = $4, input = NULL, error = NULL, completed_at = now()
       WHERE id = $1`,
      [id, JSON.stringify(outcome.result), outcome.generatedBy, outcome.flaggedInjection],
    );
  }

  @SqlSnapshot({ params: [EX.requestId, 'the model did not answer'] })
  async fail(id: string, error: string): Promise<void> {
    await this.db.query(
      `UPDATE generation_requests SET status = 'failed', error = $2, input = NULL, completed_at = now() WHERE id = $1`,
      [id, error],
    );
  }
}
