import { Module } from '@nestjs/common';
import { CodeIndexModule } from '@cairn/code-index';
import { KnowledgeModule } from '@cairn/knowledge';
import { MemoryModule } from '@cairn/memory';
import { ContextCheck } from './context-check.service';
import { ContextCheckTool } from './mcp/context-check.tool';

/** context_check (toolset harness) in the MCP gateway: memories, knowledge base and code index together. */
@Module({
  imports: [MemoryModule, KnowledgeModule, CodeIndexModule],
  providers: [ContextCheck, ContextCheckTool],
  exports: [ContextCheck],
})
export class ContextCheckMcpModule {}
