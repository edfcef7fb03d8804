import { Module } from '@nestjs/common';
import { KnowledgeModule } from '../knowledge.module';
import { KbIndexTool } from './kb-index.tool';
import { KbSearchGlobalTool } from './kb-search-global.tool';
import { KbSearchTool } from './kb-search.tool';

/** The knowledge-base tools of the MCP gateway (toolset knowledge). */
@Module({
  imports: [KnowledgeModule],
  providers: [KbIndexTool, KbSearchTool, KbSearchGlobalTool],
})
export class KnowledgeMcpModule {}
