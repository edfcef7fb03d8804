import { Module } from '@nestjs/common';
import { MemoryModule } from '../memory.module';
import { MemoryDeleteTool } from './memory-delete.tool';
import { MemoryDuplicatesTool } from './memory-duplicates.tool';
import { MemoryGetTool } from './memory-get.tool';
import { MemoryHistoryTool } from './memory-history.tool';
import { MemoryLinkTool } from './memory-link.tool';
import { MemoryListTool } from './memory-list.tool';
import { MemoryMergeTool } from './memory-merge.tool';
import { MemoryRecallTool } from './memory-recall.tool';
import { MemoryRelatedTool } from './memory-related.tool';
import { MemoryStaleTool } from './memory-stale.tool';
import { MemoryStoreTool } from './memory-store.tool';
import { MemoryUpdateTool } from './memory-update.tool';
import { MemoryVerifyTool } from './memory-verify.tool';
import { MemoryResource } from './memory.resource';

/** The memory tools of the MCP gateway (toolsets core and maintenance) and the memory resource. */
@Module({
  imports: [MemoryModule],
  providers: [
    // core
    MemoryStoreTool,
    MemoryRecallTool,
    MemoryListTool,
    MemoryGetTool,
    MemoryUpdateTool,
    MemoryDeleteTool,
    MemoryHistoryTool,
    MemoryLinkTool,
    MemoryRelatedTool,
    MemoryVerifyTool,
    // maintenance
    MemoryStaleTool,
    MemoryDuplicatesTool,
    MemoryMergeTool,
    MemoryResource,
  ],
})
export class MemoryMcpModule {}
