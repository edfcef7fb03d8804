import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { assertProjectAccess, authorOf, type SessionPrincipal } from '@cairn/access';
import { NotFoundError } from '@cairn/common';
import { sha256 } from '@cairn/generation';
import { JobQueue } from '@cairn/jobs';
import { ProjectResolver } from '@cairn/projects';
import { type SealedSecret, SecretRedaction } from '@cairn/secrets';
import { TenantTransaction } from '@cairn/tenancy';
import { FileSummariesRepository } from './file-summaries.repository';
import { type CurrentFileSummary, type FileSummary } from './contract/file-summary.types';

/**
 * File summaries keyed by (project, path, content hash): the same content is summarized
 * once; new content of a path gets a summary of its own while the older one stays readable
 * (marked stale).
 */
@Injectable()
export class FileSummaries {
  constructor(
    private readonly tx: TenantTransaction,
    private readonly projects: ProjectResolver,
    private readonly summaries: FileSummariesRepository,
    private readonly jobs: JobQueue,
    private readonly secrets: SecretRedaction,
  ) {}

  /** A ready summary of this very content at once, else a pending row whose job runs after commit. */
  async request(
    projectSlug: string,
    principal: SessionPrincipal,
    input: { path: string; content: string },
  ): Promise<FileSummary> {
    assertProjectAccess(principal, projectSlug);
    // The hash is of the file as sent (clients compare it with theirs); what is stored and
    // what the model reads has its secrets replaced by placeholders.
    const contentHash = sha256(input.content);
    // The path names the summary in later requests (GET by path): refused, not redacted.
    await this.secrets.refuseInIdentifiers({ path: input.path });
    // PostgreSQL text cannot hold NUL; the hash still covers the content exactly as sent.
    const clean = await this.secrets.redact([input.content.replaceAll('\u0000', '')]);
    return this.requestScanned(projectSlug, principal, {
      path: input.path,
      contentHash,
      content: clean.texts[0],
      sealed: clean.sealed,
    });
  }

  /**
   * The same for a file its caller has already checked and redacted (the code index scans every
   * file it stores): `path` refused if it held a secret, `content` with placeholders, `sealed`
   * the originals, `contentHash` of the file as sent. Scanning it again would find nothing new.
   */
  requestScanned(
    projectSlug: string,
    principal: SessionPrincipal,
    input: { path: string; contentHash: string; content: string; sealed: readonly SealedSecret[] },
  ): Promise<FileSummary> {
    assertProjectAccess(principal, projectSlug);
    const { contentHash } = input;
    return this.tx.run(async () => {
      const project = await this.projects.resolve(projectSlug);
      const ready = await this.summaries.touchReady(project.id, input.path, contentHash);
      if (ready) return ready;
      const row = await this.summaries.upsertPending({
        id: randomUUID(),
        projectId: project.id,
        path: input.path,
        contentHash,
        content: input.content,
        requestedBy: authorOf(principal),
      });
      await this.secrets.keep(input.sealed, {
        projectId: project.id,
        sourceTable: 'file_summaries',
        sourceId: row.id,
        writer: authorOf(principal),
      });
      // Also for a row that was already pending: the job id is deterministic, so this is
      // harmless if its job is queued, and it recovers the row if that enqueue was lost.
      if (row.status === 'pending') {
        const tenantId = principal.tenant.id;
        this.tx.onCommit(async () => {
          await this.jobs.enqueue(
            'summaries',
            'summarize-file',
            { tenantId, fileSummaryId: row.id },
            { jobId: `summarize-file-${tenantId}-${row.id}` },
          );
        });
      }
      return row;
    });
  }

  /**
   * The most recently sent version's summary when it is ready; otherwise the newest ready
   * summary, `stale` because a newer version of the file is pending (or failed); otherwise
   * the newest version, still without a summary.
   */
  current(projectSlug: string, path: string): Promise<CurrentFileSummary> {
    return this.tx.run(async () => {
      const project = await this.projects.resolve(projectSlug);
      const { newest, ready } = await this.summaries.newestForPath(project.id, path);
      if (!newest) throw new NotFoundError(`Summary of "${path}"`);
      if (!ready) return { summary: newest, stale: false };
      return { summary: ready, stale: ready.id !== newest.id };
    });
  }
}
