import { Module } from '@nestjs/common';
import { ProjectsModule } from '@cairn/projects';
import { SecretsModule } from '@cairn/secrets';
import { FileSummariesRepository } from './file-summaries.repository';
import { FileSummaries } from './file-summaries.service';
import { FileSummarizer } from './file-summarizer.service';
import { FileSummaryCompletion } from './file-summary-completion.service';
import { SessionSummarizer } from './session-summarizer.service';

/**
 * File summaries and the summarizers of files and sessions: services only, for every app
 * that accepts or runs them. The summarizers need `GENERATOR` (ProvidersModule, global);
 * session-summary requests are GenerationModule's generation requests.
 */
@Module({
  imports: [ProjectsModule, SecretsModule],
  providers: [FileSummariesRepository, FileSummaries, FileSummarizer, FileSummaryCompletion, SessionSummarizer],
  exports: [FileSummaries, FileSummariesRepository, FileSummarizer, FileSummaryCompletion, SessionSummarizer],
})
export class SummariesModule {}
