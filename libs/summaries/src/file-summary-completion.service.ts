import { Injectable } from '@nestjs/common';
import { failRowOnFinalAttempt } from '@cairn/generation';
import { type JobResult } from '@cairn/jobs';
import { TenantTransaction } from '@cairn/tenancy';
import { FileSummariesRepository } from './file-summaries.repository';
import { FileSummarizer } from './file-summarizer.service';

/**
 * Completes a pending file summary (the `summarize-file` job's use case, in the job's tenant):
 * reads the pending row, summarizes outside any transaction (no connection is held while the
 * model works), then stores the result only if the row is still pending, so a rerun or a
 * duplicate job is a no-op. On the final attempt a failure is recorded on the row instead.
 */
@Injectable()
export class FileSummaryCompletion {
  constructor(
    private readonly tx: TenantTransaction,
    private readonly summaries: FileSummariesRepository,
    private readonly summarizer: FileSummarizer,
  ) {}

  async complete(fileSummaryId: string, finalAttempt: boolean): Promise<JobResult> {
    const row = await this.tx.run(() => this.summaries.findForJob(fileSummaryId));
    if (!row) return { status: 'skipped', detail: 'file summary no longer exists' };
    if (row.status !== 'pending') return { status: 'skipped', detail: `already ${row.status}` };
    if (row.content === null) {
      await this.tx.run(() => this.summaries.fail(row.id, 'the file content is missing'));
      return { status: 'skipped', detail: 'content missing' };
    }
    const content = row.content;
    return failRowOnFinalAttempt(
      finalAttempt,
      async () => {
        const summary = await this.summarizer.summarize(row.path, content, finalAttempt);
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
