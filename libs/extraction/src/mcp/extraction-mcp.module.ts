import { Module } from '@nestjs/common';
import { SummariesModule } from '@cairn/summaries';
import { ExtractFactsTool } from './extract-facts.tool';

/** extract_facts (toolset harness) in the MCP gateway; requests are SummariesModule's generation requests. */
@Module({
  imports: [SummariesModule],
  providers: [ExtractFactsTool],
})
export class ExtractionMcpModule {}
