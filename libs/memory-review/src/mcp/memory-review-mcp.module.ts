import { Module } from '@nestjs/common';
import { MemoryReviewModule } from '../memory-review.module';
import { MemoryPromoteTool } from './memory-promote.tool';
import { MemoryReviewTool } from './memory-review.tool';
import { ReviewQueueTool } from './review-queue.tool';

/** The review tools of the MCP gateway (toolset review, not enabled by default). */
@Module({
  imports: [MemoryReviewModule],
  providers: [MemoryPromoteTool, MemoryReviewTool, ReviewQueueTool],
})
export class MemoryReviewMcpModule {}
