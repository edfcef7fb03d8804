import { Module } from '@nestjs/common';
import { GenerationModule } from '@cairn/generation';
import { WorkingMemoryModule } from '@cairn/working-memory';
import { SummariesModule } from '../summaries.module';
import { FileSummaryTool } from './file-summary.tool';
import { SessionSummarizeTool } from './session-summarize.tool';

/** session_summarize (toolset context) and file_summary (toolset harness) in the MCP gateway. */
@Module({
  imports: [SummariesModule, GenerationModule, WorkingMemoryModule],
  providers: [SessionSummarizeTool, FileSummaryTool],
})
export class SummariesMcpModule {}
