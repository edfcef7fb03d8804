import { Injectable } from '@nestjs/common';
import { defineTool, McpTool, type McpToolHandler, type ProjectToolCall } from '@cairn/mcp';
import { z } from 'zod';
import { cursorSchema, nextPageLine, pageLimitSchema } from '@cairn/memory';
import { REVIEW_STATUSES } from '../contract/memory-review.types';
import { reviewPageSchema, toQueuedReviewView } from '../contract/memory-review.dto';
import { ReviewQueue } from '../review-queue.service';
import { queueLines } from './review-text';

const spec = defineTool({
  name: 'review_queue',
  title: 'Review queue',
  toolset: 'review',
  permission: 'memory.review',
  scope: 'project',
  description: [
    "Orchestrators and admins: the project's pending reviews, oldest first: promotions to a wider scope and",
    'contradictions between authors, with excerpts of the memories (agent-written ones labelled unverified).',
    'Decide each with memory_review. Example: {} or {"limit": 10}',
  ].join(' '),
  input: z.strictObject({
    status: z.enum(REVIEW_STATUSES).default('pending').describe('pending (default), approved or rejected'),
    limit: pageLimitSchema,
    cursor: cursorSchema,
  }),
  output: reviewPageSchema,
  annotations: { readOnlyHint: true, idempotentHint: true },
});

@Injectable()
@McpTool(spec)
export class ReviewQueueTool implements McpToolHandler<typeof spec.input, typeof spec.output> {
  constructor(private readonly queue: ReviewQueue) {}

  async run(input: z.output<typeof spec.input>, call: ProjectToolCall) {
    const page = await this.queue.list(call.project, call.principal, input);
    const lines = queueLines(page.items);
    return {
      structured: { items: page.items.map(toQueuedReviewView), nextCursor: page.nextCursor },
      text: [lines.length ? lines.join('\n') : `No ${input.status} reviews.`, nextPageLine(page.nextCursor)]
        .filter(Boolean)
        .join('\n'),
    };
  }
}
