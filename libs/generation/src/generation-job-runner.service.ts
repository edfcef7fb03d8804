import { Inject, Injectable } from '@nestjs/common';
import { CAIRN_CONFIG, type CairnConfig } from '@cairn/config';
import { PermanentJobError, type JobResult, type TenantJobInfo } from '@cairn/jobs';
import { type LiveTenant, TenantTransaction } from '@cairn/tenancy';
import { type GenerationJobRow, type GenerationKind } from './contract/generation-request.types';
import { GenerationRequestsRepository } from './generation-requests.repository';
import { failRowOnFinalAttempt, isFinalAttempt } from './model-call';

/** What a generation job does with a pending request, in two steps. */
export interface GenerationWork<T> {
  /** Outside any transaction (the model may take seconds): turn the input into a result. */
  produce(input: string, finalAttempt: boolean): Promise<T>;
  /**
   * Inside the transaction that holds the request row locked and still pending: store what
   * was produced, and return what `GET requests/{id}` shows plus the job's outcome.
   */
  store(
    produced: T,
    request: GenerationJobRow,
    tenant: LiveTenant,
  ): Promise<{ result: Record<string, unknown>; generatedBy: string; flaggedInjection: boolean; detail?: string }>;
}

/**
 * The shared run of `summarize-session` and `extract-facts`, in the job's tenant (the job
 * registry entered it): skip what is gone or finished, produce without holding a connection,
 * then store and mark done in one transaction under the row lock. A rerun, a duplicate job or a crash between the two steps therefore never
 * stores a result twice.
 */
@Injectable()
export class GenerationJobRunner {
  constructor(
    @Inject(CAIRN_CONFIG) private readonly config: CairnConfig,
    private readonly tx: TenantTransaction,
    private readonly requests: GenerationRequestsRepository,
  ) {}

  async run<T>(
    payload: { requestId: string },
    job: TenantJobInfo,
    kind: GenerationKind,
    work: GenerationWork<T>,
  ): Promise<JobResult> {
    const request = await this.tx.run(() => this.requests.findForJob(payload.requestId));
    if (!request) return { status: 'skipped', detail: 'request no longer exists' };
    if (request.kind !== kind) throw new PermanentJobError(`request ${request.id} is a ${request.kind}, not a ${kind}`);
    if (request.status !== 'pending') return { status: 'skipped', detail: `already ${request.status}` };
    const input = request.input;
    if (input === null) {
      await this.tx.run(() => this.requests.fail(request.id, 'the input is missing'));
      return { status: 'skipped', detail: 'input missing' };
    }
    const final = isFinalAttempt(job.attemptsMade, this.config.worker.attempts);
    return failRowOnFinalAttempt(
      final,
      async () => {
        const produced = await work.produce(input, final);
        return this.tx.run(async (): Promise<JobResult> => {
          const locked = await this.requests.findForJob(request.id, true);
          if (locked?.status !== 'pending') return { status: 'skipped', detail: 'finished meanwhile' };
          const outcome = await work.store(produced, locked, job.tenant);
          await this.requests.complete(request.id, outcome);
          return { status: 'done', detail: outcome.detail ?? outcome.generatedBy };
        });
      },
      (message) => this.tx.run(() => this.requests.fail(request.id, message)),
    );
  }
}
