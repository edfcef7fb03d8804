import { GenerationJobRunner, requesterPrincipal } from '@cairn/generation';
import { type HandlesJob, JobHandler, type JobPayload, type JobResult, type TenantJobInfo } from '@cairn/jobs';
import { SessionSummaryService } from '@cairn/working-memory';
import { SessionSummarizer, type SessionSummaryText } from '../session-summarizer.service';

/**
 * `summaries/summarize-session`: summarizes the transcript, then files the summary exactly as
 * `POST session/summary` would for the requesting agent: archived in the knowledge base
 * (tier `summary`) and kept as that agent's `last_session_summary` working-memory entry.
 */
@JobHandler('summaries', 'summarize-session')
export class SummarizeSessionJobHandler implements HandlesJob<'summaries', 'summarize-session'> {
  constructor(
    private readonly runner: GenerationJobRunner,
    private readonly summarizer: SessionSummarizer,
    private readonly sessionSummaries: SessionSummaryService,
  ) {}

  handle(payload: JobPayload<'summaries', 'summarize-session'>, job: TenantJobInfo): Promise<JobResult> {
    return this.runner.run<SessionSummaryText>(payload, job, 'session_summary', {
      produce: (input, finalAttempt) => this.summarizer.summarize(input, finalAttempt),
      store: async (summary, request, tenant) => {
        // Joins the runner's transaction: the archive, the working-memory entry and the
        // request's completion commit together, and the embedding job waits for that commit.
        const filed = await this.sessionSummaries.summarize(request.projectSlug, requesterPrincipal(tenant, request), {
          text: summary.text,
        });
        return {
          result: { summary: summary.text, documentId: filed.document.id, evicted: filed.evicted.length },
          generatedBy: summary.generatedBy,
          flaggedInjection: summary.flaggedInjection,
        };
      },
    });
  }
}
