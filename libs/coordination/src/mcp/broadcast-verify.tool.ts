import { Injectable } from '@nestjs/common';
import { defineTool, McpTool, type McpToolHandler, type ProjectToolCall } from '@cairn/mcp';
import { z } from 'zod';
import { BroadcastReading } from '../broadcast-reading.service';
import { verificationSchema } from '../contract/broadcast.dto';

const spec = defineTool({
  name: 'broadcast_verify',
  title: "Verify the channel's hash chain",
  toolset: 'coordination',
  permission: 'broadcast.read',
  scope: 'project',
  description:
    "Recompute the coordination channel's SHA-256 hash chain; names the first altered, removed or reordered message. Example: {}",
  input: z.strictObject({}),
  output: verificationSchema,
  annotations: { readOnlyHint: true, idempotentHint: true },
});

@Injectable()
@McpTool(spec)
export class BroadcastVerifyTool implements McpToolHandler<typeof spec.input, typeof spec.output> {
  constructor(private readonly reading: BroadcastReading) {}

  async run(_input: z.output<typeof spec.input>, call: ProjectToolCall) {
    const result = await this.reading.verify(call.project, call.principal);
    const text = result.valid
      ? `Chain of ${call.project}'s channel holds: ${result.entries} message(s), head ${result.head ?? 'none'}.`
      : `Chain BROKEN at #${result.firstInvalidSeq}: ${result.reason} (${result.entries} message(s) before it verify).`;
    return { structured: result, text };
  }
}
