import { Inject } from '@nestjs/common';
import { CAIRN_CONFIG, type CairnConfig } from '@cairn/config';
import { isFinalAttempt } from '@cairn/generation';
import { type HandlesJob, JobHandler, type JobPayload, type JobResult, type TenantJobInfo } from '@cairn/jobs';
import { FileSummaryCompletion } from '../file-summary-completion.service';

/** `summaries/summarize-file`: completes the pending file summary (FileSummaryCompletion). */
@JobHandler('summaries', 'summarize-file')
export class SummarizeFileJobHandler implements HandlesJob<'summaries', 'summarize-file'> {
  constructor(
    @Inject(CAIRN_CONFIG) private readonly config: CairnConfig,
    private readonly completion: FileSummaryCompletion,
  ) {}

  handle(payload: JobPayload<'summaries', 'summarize-file'>, job: TenantJobInfo): Promise<JobResult> {
    return this.completion.complete(
      payload.fileSummaryId,
      isFinalAttempt(job.attemptsMade, this.config.worker.attempts),
    );
  }
}
