import { Module } from '@nestjs/common';
import { MemoryModule } from '../memory.module';
import { ContentLimit } from '../http/content-limit';
import { MemoryRecallTool } from './memory-recall.tool';
import { MemoryStoreTool } from './memory-store.tool';

/** The memory tools of the MCP gateway (toolsets core and maintenance). */
@Module({
  imports: [MemoryModule],
  providers: [ContentLimit, MemoryStoreTool, MemoryRecallTool],
})
export class MemoryMcpModule {}
