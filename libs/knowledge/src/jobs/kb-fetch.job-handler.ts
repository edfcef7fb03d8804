import { type HandlesJob, JobHandler, type JobPayload, type JobResult, type TenantJobInfo } from '@cairn/jobs';
import { KbFetchRunner } from '../kb-fetch-runner.service';

/** `knowledge/fetch`: a URL into a project's knowledge base (KbFetchRunner). */
@JobHandler('knowledge', 'fetch')
export class KbFetchJobHandler implements HandlesJob<'knowledge', 'fetch'> {
  constructor(private readonly runner: KbFetchRunner) {}

  handle(payload: JobPayload<'knowledge', 'fetch'>, { tenant }: TenantJobInfo): Promise<JobResult> {
    return this.runner.run(payload, tenant);
  }
}
