import { Module } from '@nestjs/common';
import { GenerationModule } from '@cairn/generation';
import { ProjectsModule } from '@cairn/projects';
import { WorkingMemoryModule } from '@cairn/working-memory';
import { FileSummariesRepository } from './files/file-summaries.repository';
import { FileSummaries } from './files/file-summaries.service';
import { FileSummarizer } from './files/file-summarizer';
import { SummarizeFileJobHandler } from './files/summarize-file.job-handler';
import { FileSummariesController } from './http/file-summaries.controller';
import { SessionSummarizer } from './session/session-summarizer';
import { SummarizeSessionJobHandler } from './session/summarize-session.job-handler';

/** File summaries: services only, for every app that accepts or runs them. */
@Module({
  imports: [ProjectsModule],
  providers: [FileSummariesRepository, FileSummaries],
  exports: [FileSummaries, FileSummariesRepository],
})
export class SummariesModule {}

/** File-summary routes; api app only (session-summarize and request status: GenerationHttpModule). */
@Module({
  imports: [SummariesModule],
  controllers: [FileSummariesController],
})
export class SummariesHttpModule {}

/**
 * The `summarize-file` and `summarize-session` handlers, registered on init; worker app only.
 * Needs `GENERATOR` (ProvidersModule, global) and files session summaries through WorkingMemoryModule.
 */
@Module({
  imports: [SummariesModule, GenerationModule, WorkingMemoryModule],
  providers: [FileSummarizer, SessionSummarizer, SummarizeFileJobHandler, SummarizeSessionJobHandler],
})
export class SummariesWorkerModule {}
