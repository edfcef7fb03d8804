import { Module } from '@nestjs/common';
import { CodeIndexModule } from '@cairn/code-index';
import { KnowledgeModule } from '@cairn/knowledge';
import { MemoryModule } from '@cairn/memory';
import { ContextCheck } from './context-check.service';

/** context_check's service: memories, knowledge base and code index together (ContextCheckMcpModule serves it). */
@Module({
  imports: [MemoryModule, KnowledgeModule, CodeIndexModule],
  providers: [ContextCheck],
  exports: [ContextCheck],
})
export class ContextCheckModule {}
