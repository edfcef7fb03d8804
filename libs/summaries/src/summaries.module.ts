import { Module } from '@nestjs/common';
import { ProjectsModule } from '@cairn/projects';
import { WorkingMemoryModule } from '@cairn/working-memory';
import { FileSummariesRepository } from './files/file-summaries.repository';
import { FileSummaries } from './files/file-summaries.service';
import { FileSummarizer } from './files/file-summarizer';
import { SummarizeFileJobHandler } from './files/summarize-file.job-handler';
import { GenerationJobRunner } from './generation/generation-job';
import { GenerationRequestsRepository } from './generation/generation-requests.repository';
import { GenerationRequests } from './generation/generation-requests.service';
import { FileSummariesController } from './http/file-summaries.controller';
import { GenerationRequestsController } from './http/generation-requests.controller';
import { SessionSummarizer } from './session/session-summarizer';
import { SummarizeSessionJobHandler } from './session/summarize-session.job-handler';

/**
 * File summaries and generation requests (session summaries; fact extraction builds on the
 * same requests): services only, for every app that accepts or runs them.
 */
@Module({
  imports: [ProjectsModule],
  providers: [
    FileSummariesRepository,
    FileSummaries,
    GenerationRequestsRepository,
    GenerationRequests,
    GenerationJobRunner,
  ],
  exports: [
    FileSummaries,
    FileSummariesRepository,
    GenerationRequestsRepository,
    GenerationRequests,
    GenerationJobRunner,
  ],
})
export class SummariesModule {}

/** File-summary, session-summarize and request-status routes; api app only. */
@Module({
  imports: [SummariesModule],
  controllers: [FileSummariesController, GenerationRequestsController],
})
export class SummariesHttpModule {}

/**
 * The `summarize-file` and `summarize-session` handlers, registered on init; worker app only.
 * Needs `GENERATOR` (ProvidersModule, global) and files session summaries through WorkingMemoryModule.
 */
@Module({
  imports: [SummariesModule, WorkingMemoryModule],
  providers: [FileSummarizer, SessionSummarizer, SummarizeFileJobHandler, SummarizeSessionJobHandler],
})
export class SummariesWorkerModule {}
