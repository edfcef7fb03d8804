import { Module } from '@nestjs/common';
import { MemoryModule } from '@cairn/memory';
import { MemoryHygieneModule } from '../memory-hygiene.module';
import { MemoryDuplicatesTool } from './memory-duplicates.tool';
import { MemoryMergeTool } from './memory-merge.tool';
import { MemoryStaleTool } from './memory-stale.tool';

/** The memory maintenance tools of the MCP gateway (toolset maintenance). */
@Module({
  imports: [MemoryModule, MemoryHygieneModule],
  providers: [MemoryStaleTool, MemoryDuplicatesTool, MemoryMergeTool],
})
export class MemoryHygieneMcpModule {}
