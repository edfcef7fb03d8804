import { Injectable } from '@nestjs/common';
import { defineTool, McpTool, type McpToolHandler, type ProjectToolCall } from '@cairn/mcp';
import { type z } from 'zod';
import { decideSchema, reviewIdSchema, reviewSchema, toReviewView } from '../contract/memory-review.dto';
import { ReviewDecisions } from '../review-decisions.service';
import { reviewLine } from './review-text';

const spec = defineTool({
  name: 'memory_review',
  title: 'Decide a review',
  toolset: 'review',
  permission: 'memory.review',
  scope: 'project',
  description: [
    'Orchestrators and admins: decide a pending review from review_queue, with a reason the author will read.',
    'Contradictions take a resolution: keep_both changes nothing, supersede retires the old memory,',
    'reject_new archives the new one. Example: {"id": "<review id>", "decision": "approve", "reason": "useful"}',
    'or {"id": "<review id>", "resolution": "supersede", "reason": "the port moved"}',
  ].join(' '),
  input: decideSchema.extend({ id: reviewIdSchema }),
  output: reviewSchema,
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false },
});

@Injectable()
@McpTool(spec)
export class MemoryReviewTool implements McpToolHandler<typeof spec.input, typeof spec.output> {
  constructor(private readonly decisions: ReviewDecisions) {}

  async run(input: z.output<typeof spec.input>, call: ProjectToolCall) {
    const review = await this.decisions.decide(call.project, call.principal, input.id, {
      decision: input.decision,
      resolution: input.resolution,
      reason: input.reason,
    });
    return { structured: toReviewView(review), text: reviewLine(review) };
  }
}
