import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { assertProjectAccess, authorOf, type SessionPrincipal } from '@cairn/access';
import { BadRequestError, NotFoundError, stripControlCharacters } from '@cairn/common';
import { JobQueue } from '@cairn/jobs';
import { ProjectResolver } from '@cairn/projects';
import { SecretRedaction } from '@cairn/secrets';
import { TenantTransaction } from '@cairn/tenancy';
import {
  type GenerationKind,
  type GenerationRequestRow,
  TRANSCRIPT_MAX_CHARS,
} from './contract/generation-request.types';
import { GenerationRequestsRepository } from './generation-requests.repository';
import { sha256 } from './text-caps';

export interface SubmittedRequest {
  readonly requestId: string;
  readonly status: GenerationRequestRow['status'];
  /** True when this was a retry of a recent identical request, which is returned instead. */
  readonly reused: boolean;
}

/**
 * Session summaries and fact extractions as asynchronous requests: the row commits with its
 * input, then the job is enqueued; clients poll `GET requests/{id}`.
 */
@Injectable()
export class GenerationRequests {
  constructor(
    private readonly tx: TenantTransaction,
    private readonly projects: ProjectResolver,
    private readonly requests: GenerationRequestsRepository,
    private readonly jobs: JobQueue,
    private readonly secrets: SecretRedaction,
  ) {}

  async submit(
    projectSlug: string,
    principal: SessionPrincipal,
    kind: GenerationKind,
    transcript: string,
    /** When the conversation took place (fact extraction dates its memories so). */
    occurredAt?: Date,
  ): Promise<SubmittedRequest> {
    assertProjectAccess(principal, projectSlug);
    // The HTTP layer validates too; other callers (MCP tools) get the same rules here.
    const input = stripControlCharacters(transcript).trim();
    if (input.length === 0) throw new BadRequestError('transcript must contain some text', undefined, 'empty_input');
    if (input.length > TRANSCRIPT_MAX_CHARS) {
      throw new BadRequestError(
        `transcript must be at most ${TRANSCRIPT_MAX_CHARS} characters`,
        undefined,
        'too_large',
      );
    }
    // The stored transcript, the model's prompt and whatever is made from it see placeholders only.
    const clean = await this.secrets.redact([input]);
    const stored = clean.texts[0];
    const inputHash = sha256(stored);
    const requestedBy = authorOf(principal);
    return this.tx.run(async () => {
      const project = await this.projects.resolve(projectSlug);
      const existing = await this.requests.findReusable(project.id, kind, inputHash, requestedBy, occurredAt);
      let row = existing;
      if (!row) {
        const id = randomUUID();
        await this.secrets.keep(clean.sealed, {
          projectId: project.id,
          sourceTable: 'generation_requests',
          sourceId: id,
          writer: requestedBy,
        });
        row = await this.requests.insert({
          id,
          projectId: project.id,
          kind,
          input: stored,
          inputHash,
          requestedBy,
          occurredAt,
        });
      }
      // A pending request is (re-)enqueued: the deterministic job id makes that harmless, and it
      // recovers a request whose first enqueue was lost while Redis was away.
      const submitted = row;
      if (submitted.status === 'pending') {
        this.tx.onCommit(async () => {
          await this.enqueue(principal.tenant.id, submitted);
        });
      }
      return { requestId: submitted.id, status: submitted.status, reused: existing !== undefined };
    });
  }

  /** Any request of the project (every agent's): results are project data like memories. */
  get(projectSlug: string, id: string): Promise<GenerationRequestRow> {
    return this.tx.run(async () => {
      const project = await this.projects.resolve(projectSlug);
      const row = await this.requests.findInProject(project.id, id);
      if (!row) throw new NotFoundError('Request');
      return row;
    });
  }

  private enqueue(tenantId: string, row: GenerationRequestRow): Promise<boolean> {
    const payload = { tenantId, requestId: row.id };
    return row.kind === 'session_summary'
      ? this.jobs.enqueue('summaries', 'summarize-session', payload, {
          jobId: `summarize-session-${tenantId}-${row.id}`,
        })
      : this.jobs.enqueue('extraction', 'extract-facts', payload, { jobId: `extract-facts-${tenantId}-${row.id}` });
  }
}
