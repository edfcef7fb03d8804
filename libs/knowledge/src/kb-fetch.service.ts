import { randomUUID } from 'node:crypto';
import { Inject, Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import { assertProjectAccess, type SessionPrincipal } from '@cairn/access';
import { CairnError, NotFoundError, RateLimitedError } from '@cairn/common';
import { CAIRN_CONFIG, type CairnConfig } from '@cairn/config';
import { createBullConnection, type JobPayload, type JobResult, JobQueue, withTimeout } from '@cairn/jobs';
import { ProjectResolver } from '@cairn/projects';
import { TenantTransaction } from '@cairn/tenancy';
import { QueueEvents } from 'bullmq';
import { type Redis } from 'ioredis';
import { KbDocumentsRepository } from './kb-documents.repository';
import { KbFetchBudgetRepository } from './kb-fetch-budget.repository';
import {
  FETCH_JOB_ID,
  type FetchedDocument,
  type FetchJobOutput,
  type FetchOutcome,
  type FetchRequest,
} from './contract/kb.types';

/** A fetch job's result stays readable this long, for a caller that got 202 and its job id. */
const KEEP_RESULT_SECONDS = 3_600;

/** What a job that threw (rather than answering a refusal) tells its caller: nothing of the worker's error. */
const WORKER_FAILURE = {
  status: 502,
  code: 'fetch_failed',
  message: 'The fetch failed in the worker; try again later',
};

/**
 * `kb_fetch` on the api and gateway side: takes one fetch from the project's daily budget,
 * hands the fetch to the worker (the only pods with egress) and waits a bounded time for the
 * stored document; a caller whose wait ran out reads the result later by job id. Refusals of
 * the fetch (a blocked address, a host off the tenant's lists) come back from the worker as
 * the same errors the fetch engine raised, and those refused before anything was sent give
 * their fetch back to the budget (the worker calls `giveBack`).
 */
@Injectable()
export class KbFetchService implements OnApplicationShutdown {
  private readonly logger = new Logger('KbFetch');
  private events?: Promise<QueueEvents>;
  private eventsConnection?: Redis;

  constructor(
    @Inject(CAIRN_CONFIG) private readonly config: CairnConfig,
    private readonly tx: TenantTransaction,
    private readonly projects: ProjectResolver,
    private readonly budget: KbFetchBudgetRepository,
    private readonly documents: KbDocumentsRepository,
    private readonly jobs: JobQueue,
  ) {}

  async fetch(projectSlug: string, principal: SessionPrincipal, request: FetchRequest): Promise<FetchOutcome> {
    assertProjectAccess(principal, projectSlug);
    const limit = this.config.knowledge.fetchDailyBudget;
    const taken = await this.tx.run(async () => {
      const project = await this.projects.resolve(projectSlug);
      return this.budget.take(project.id, limit);
    });
    if (taken === null) {
      throw new RateLimitedError(
        `Project ${projectSlug} has used its ${limit} fetches for today (UTC); try again tomorrow`,
        secondsToUtcMidnight(),
        { budget: 'kb_fetch_daily', limit },
      );
    }

    // Listening before the job exists, so a fast fetch cannot finish unseen.
    const events = await this.queueEvents();
    const jobId = `kb-fetch-${randomUUID()}`;
    const queued = await this.jobs.enqueue(
      'knowledge',
      'fetch',
      {
        tenantId: principal.tenant.id,
        project: projectSlug,
        url: request.url,
        requestedBy: { userId: principal.userId, agentId: principal.agentId, tokenId: principal.tokenId },
        title: request.title,
        retentionTier: request.retentionTier,
        budgetDay: taken.day,
      },
      { jobId, keepResultSeconds: KEEP_RESULT_SECONDS, attempts: 1 },
    );
    if (!queued) throw new CairnError(503, 'queue_unavailable', 'The fetch could not be queued; try again shortly');

    const job = await this.jobs.queue('knowledge').getJob(jobId);
    if (!job) return { status: 'pending', jobId };
    let result: JobResult;
    try {
      result = (await withTimeout(job.waitUntilFinished(events), this.config.knowledge.fetchWaitMs)) as JobResult;
    } catch (error) {
      if (error instanceof Error && error.message.startsWith('no answer within')) return { status: 'pending', jobId };
      this.logger.warn({ msg: 'fetch job failed', jobId, err: error });
      throw new CairnError(WORKER_FAILURE.status, WORKER_FAILURE.code, WORKER_FAILURE.message);
    }
    return { status: 'done', fetched: await this.stored(projectSlug, result.output as FetchJobOutput | undefined) };
  }

  /**
   * A fetch job of this tenant and project, as it stands: still pending, done with its
   * document, or failed with the error the fetch answered. Another project's or tenant's job
   * is not found, exactly like a job that never existed or whose result expired (an hour).
   */
  async status(projectSlug: string, principal: SessionPrincipal, jobId: string): Promise<FetchOutcome> {
    assertProjectAccess(principal, projectSlug);
    const job = FETCH_JOB_ID.test(jobId) ? await this.jobs.queue('knowledge').getJob(jobId) : undefined;
    const data = job?.data as Partial<JobPayload<'knowledge', 'fetch'>> | undefined;
    // Job ids are random, but ownership is what decides: the tenant and project the job was queued for.
    if (!job || job.name !== 'fetch' || data?.tenantId !== principal.tenant.id || data.project !== projectSlug) {
      throw new NotFoundError('Fetch job');
    }
    const state = await job.getState();
    if (state === 'failed') return { status: 'failed', jobId, error: WORKER_FAILURE };
    if (state !== 'completed') return { status: 'pending', jobId };
    const output = (job.returnvalue as JobResult | undefined)?.output as FetchJobOutput | undefined;
    if (output && 'error' in output) {
      const { status, code, message } = output.error;
      return { status: 'failed', jobId, error: { status, code, message } };
    }
    return { status: 'done', jobId, fetched: await this.stored(projectSlug, output) };
  }

  /**
   * Gives back the fetch a job took from its project's budget, when the safety checks refused
   * its URL before anything was sent (the worker calls it, inside the job's tenant): only
   * fetches that reach the network count. Best effort: a project deleted since keeps nothing.
   */
  async giveBack(projectSlug: string, day: string): Promise<void> {
    await this.tx.run(async () => {
      const project = await this.projects.resolve(projectSlug);
      await this.budget.giveBack(project.id, day);
    });
  }

  /** The document a finished job stored, or the error it ended with, raised as the caller's error. */
  private async stored(projectSlug: string, output: FetchJobOutput | undefined): Promise<FetchedDocument> {
    if (!output) throw new CairnError(502, 'fetch_failed', 'The fetch ended without a result');
    if ('error' in output) {
      const { status, code, message, details } = output.error;
      throw new CairnError(status, code, message, details);
    }
    return this.tx.run(async () => {
      const project = await this.projects.resolve(projectSlug);
      const document = await this.documents.find(project.id, output.documentId);
      if (!document) throw new NotFoundError('Fetched document');
      return {
        document: { ...document, project: project.slug },
        chunks: document.chunkCount,
        duplicate: output.duplicate,
        finalUrl: output.finalUrl,
        flags: output.flags,
      };
    });
  }

  private queueEvents(): Promise<QueueEvents> {
    this.events ??= (async () => {
      this.eventsConnection = createBullConnection(this.config, 'consumer');
      const events = new QueueEvents('knowledge', {
        connection: this.eventsConnection,
        prefix: this.config.queues.prefix,
      });
      events.on('error', (error) => this.logger.debug({ msg: 'queue events connection error', err: error }));
      await events.waitUntilReady();
      return events;
    })();
    return this.events;
  }

  async onApplicationShutdown(): Promise<void> {
    const events = await this.events?.catch(() => undefined);
    await events?.close();
    // A connection handed to BullMQ stays the caller's to close.
    this.eventsConnection?.disconnect();
  }
}

function secondsToUtcMidnight(now = new Date()): number {
  const midnight = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1);
  return Math.max(1, Math.ceil((midnight - now.getTime()) / 1000));
}
