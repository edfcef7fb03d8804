import { Module } from '@nestjs/common';
import { MemoryModule } from '../memory.module';
import { MemoryDeleteTool } from './memory-delete.tool';
import { MemoryGetTool } from './memory-get.tool';
import { MemoryHistoryTool } from './memory-history.tool';
import { MemoryLinkTool } from './memory-link.tool';
import { MemoryListTool } from './memory-list.tool';
import { MemoryCategoriesTool } from './memory-categories.tool';
import { MemoryTopicsTool } from './memory-topics.tool';
import { MemoryRecallTool } from './memory-recall.tool';
import { MemoryRelatedTool } from './memory-related.tool';
import { MemoryStoreTool } from './memory-store.tool';
import { MemoryUpdateTool } from './memory-update.tool';
import { MemoryVerifyTool } from './memory-verify.tool';
import { MemoryResource } from './memory.resource';

/**
 * The core memory tools of the MCP gateway and the memory resource, plus the topic view
 * (memory_topics, memory_categories, in the maintenance toolset); memory-hygiene serves the
 * other maintenance tools.
 */
@Module({
  imports: [MemoryModule],
  providers: [
    MemoryStoreTool,
    MemoryRecallTool,
    MemoryListTool,
    MemoryTopicsTool,
    MemoryCategoriesTool,
    MemoryGetTool,
    MemoryUpdateTool,
    MemoryDeleteTool,
    MemoryHistoryTool,
    MemoryLinkTool,
    MemoryRelatedTool,
    MemoryVerifyTool,
    MemoryResource,
  ],
})
export class MemoryMcpModule {}
