import { Inject } from '@nestjs/common';
import { CAIRN_CONFIG, type CairnConfig } from '@cairn/config';
import { failRowOnFinalAttempt, isFinalAttempt } from '@cairn/generation';
import { type HandlesJob, JobHandler, type JobPayload, type JobResult, type TenantJobInfo } from '@cairn/jobs';
import { TenantTransaction } from '@cairn/tenancy';
import { FileSummariesRepository } from '../file-summaries.repository';
import { FileSummarizer } from '../file-summarizer.service';

/**
 * `summaries/summarize-file`: reads the pending row, summarizes outside any transaction (no
 * connection is held while the model works), then stores the result only if the row is still
 * pending, so a rerun or a duplicate job is a no-op.
 */
@JobHandler('summaries', 'summarize-file')
export class SummarizeFileJobHandler implements HandlesJob<'summaries', 'summarize-file'> {
  constructor(
    @Inject(CAIRN_CONFIG) private readonly config: CairnConfig,
    private readonly tx: TenantTransaction,
    private readonly summaries: FileSummariesRepository,
    private readonly summarizer: FileSummarizer,
  ) {}

  async handle(payload: JobPayload<'summaries', 'summarize-file'>, job: TenantJobInfo): Promise<JobResult> {
    const row = await this.tx.run(() => this.summaries.findForJob(payload.fileSummaryId));
    if (!row) return { status: 'skipped', detail: 'file summary no longer exists' };
    if (row.status !== 'pending') return { status: 'skipped', detail: `already ${row.status}` };
    if (row.content === null) {
      await this.tx.run(() => this.summaries.fail(row.id, 'the file content is missing'));
      return { status: 'skipped', detail: 'content missing' };
    }
    const final = isFinalAttempt(job.attemptsMade, this.config.worker.attempts);
    const content = row.content;
    return failRowOnFinalAttempt(
      final,
      async () => {
        const summary = await this.summarizer.summarize(row.path, content, final);
        return this.tx.run(async (): Promise<JobResult> => {
          const locked = await this.summaries.findForJob(row.id, true);
          if (locked?.status !== 'pending') return { status: 'skipped', detail: 'finished meanwhile' };
          await this.summaries.complete(row.id, summary);
          return { status: 'done', detail: summary.generatedBy };
        });
      },
      (message) => this.tx.run(() => this.summaries.fail(row.id, message)),
    );
  }
}
