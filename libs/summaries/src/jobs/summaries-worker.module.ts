import { Module } from '@nestjs/common';
import { GenerationModule } from '@cairn/generation';
import { WorkingMemoryModule } from '@cairn/working-memory';
import { SummariesModule } from '../summaries.module';
import { SummarizeFileJobHandler } from './summarize-file.job-handler';
import { SummarizeSessionJobHandler } from './summarize-session.job-handler';

/**
 * The `summarize-file` and `summarize-session` handlers, registered on init; worker app only.
 * Session summaries run through GenerationModule's job runner and are filed through WorkingMemoryModule.
 */
@Module({
  imports: [SummariesModule, GenerationModule, WorkingMemoryModule],
  providers: [SummarizeFileJobHandler, SummarizeSessionJobHandler],
})
export class SummariesWorkerModule {}
