import { Module } from '@nestjs/common';
import { GenerationModule } from '@cairn/generation';
import { ExtractFactsTool } from './extract-facts.tool';

/** extract_facts (toolset harness) in the MCP gateway; requests are GenerationModule's generation requests. */
@Module({
  imports: [GenerationModule],
  providers: [ExtractFactsTool],
})
export class ExtractionMcpModule {}
