import { Module } from '@nestjs/common';
import { MemorySharingModule } from '../memory-sharing.module';
import { MemoryShareTool } from './memory-share.tool';
import { MemoryUnshareTool } from './memory-unshare.tool';
import { MySharesTool } from './my-shares.tool';
import { SharedWithMeTool } from './shared-with-me.tool';

/** The sharing tools of the MCP gateway (toolset `sharing`, not enabled by default). */
@Module({
  imports: [MemorySharingModule],
  providers: [MemoryShareTool, MemoryUnshareTool, SharedWithMeTool, MySharesTool],
})
export class MemorySharingMcpModule {}
