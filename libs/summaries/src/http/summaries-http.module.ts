import { Module } from '@nestjs/common';
import { SummariesModule } from '../summaries.module';
import { FileSummariesController } from './file-summaries.controller';

/** File-summary routes; api app only (session-summarize and request status: GenerationHttpModule). */
@Module({
  imports: [SummariesModule],
  controllers: [FileSummariesController],
})
export class SummariesHttpModule {}
