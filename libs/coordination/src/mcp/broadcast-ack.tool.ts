import { Injectable } from '@nestjs/common';
import { defineTool, McpTool, type McpToolHandler, type ProjectToolCall } from '@cairn/mcp';
import { type z } from 'zod';
import { BroadcastReading } from '../broadcast-reading.service';
import { ackResultSchema, ackSchema } from '../contract/broadcast.dto';

const spec = defineTool({
  name: 'broadcast_ack',
  title: 'Acknowledge channel messages',
  toolset: 'coordination',
  // A write, however small: readers only read (their unacknowledged filter shows everything).
  permission: 'broadcast.post',
  scope: 'project',
  description: [
    'Mark channel messages as read by you (your agent id), so broadcast_read with unacknowledged and your',
    'recall_context stop showing them. Example: {"seqs": [12, 14]}',
  ].join(' '),
  input: ackSchema,
  output: ackResultSchema,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true },
});

@Injectable()
@McpTool(spec)
export class BroadcastAckTool implements McpToolHandler<typeof spec.input, typeof spec.output> {
  constructor(private readonly reading: BroadcastReading) {}

  async run(input: z.output<typeof spec.input>, call: ProjectToolCall) {
    const result = await this.reading.acknowledge(call.project, call.principal, input.seqs);
    const already = result.already.length > 0 ? ` (already: #${result.already.join(', #')})` : '';
    const text =
      result.acknowledged.length > 0
        ? `Acknowledged #${result.acknowledged.join(', #')}${already}.`
        : `Nothing new to acknowledge${already}.`;
    return { structured: result, text };
  }
}
