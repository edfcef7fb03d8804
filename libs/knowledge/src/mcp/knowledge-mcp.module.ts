import { Module } from '@nestjs/common';
import { KnowledgeModule } from '../knowledge.module';
import { KbFetchTool } from './kb-fetch.tool';
import { KbIndexTool } from './kb-index.tool';
import { KbSearchGlobalTool } from './kb-search-global.tool';
import { KbSearchTool } from './kb-search.tool';

/** The knowledge-base tools of the MCP gateway (toolset knowledge; kb_fetch in toolset web). */
@Module({
  imports: [KnowledgeModule],
  providers: [KbIndexTool, KbFetchTool, KbSearchTool, KbSearchGlobalTool],
})
export class KnowledgeMcpModule {}
