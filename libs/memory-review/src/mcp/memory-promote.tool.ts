import { Injectable } from '@nestjs/common';
import { defineTool, McpTool, type McpToolHandler, type ProjectToolCall } from '@cairn/mcp';
import { type z } from 'zod';
import { memoryIdSchema } from '@cairn/memory';
import { promoteSchema, reviewSchema, toReviewView } from '../contract/memory-review.dto';
import { MemoryPromotions } from '../memory-promotions.service';
import { reviewLine } from './review-text';

const spec = defineTool({
  name: 'memory_promote',
  title: 'Propose a wider scope',
  toolset: 'review',
  permission: 'memory.promote',
  scope: 'project',
  description: [
    'Propose moving a memory to a wider scope (private < project < team) for an orchestrator or admin to',
    'approve; you learn the outcome in your next briefing. One pending proposal per memory.',
    'Example: {"id": "<memory id>", "toScope": "project", "note": "useful to everyone on the repo"}',
  ].join(' '),
  input: promoteSchema.extend({ id: memoryIdSchema.describe('The memory to promote') }),
  output: reviewSchema,
  annotations: { readOnlyHint: false, idempotentHint: false },
});

@Injectable()
@McpTool(spec)
export class MemoryPromoteTool implements McpToolHandler<typeof spec.input, typeof spec.output> {
  constructor(private readonly promotions: MemoryPromotions) {}

  async run(input: z.output<typeof spec.input>, call: ProjectToolCall) {
    const review = await this.promotions.propose(call.project, call.principal, input.id, {
      toScope: input.toScope,
      note: input.note,
    });
    return { structured: toReviewView(review), text: `${reviewLine(review)} A reviewer decides it.` };
  }
}
