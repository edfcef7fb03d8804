import { Injectable } from '@nestjs/common';
import { defineTool, McpTool, type McpToolHandler, type ProjectToolCall } from '@cairn/mcp';
import { z } from 'zod';
import { grantViewSchema, toGrantView } from '../contract/sharing.dto';
import { MemorySharing } from '../memory-sharing.service';
import { grantLine } from './sharing-text';

const spec = defineTool({
  name: 'memory_unshare',
  title: 'Take back a share',
  toolset: 'sharing',
  permission: 'memory.share',
  scope: 'project',
  description: [
    'Remove a share or a tag rule (yours; any as an admin), effective at once. The id is the one memory_share',
    'returned or my_shares lists. Example: {"id": "<share id>"}',
  ].join(' '),
  input: z.strictObject({ id: z.uuid('must be a share or rule id (from memory_share or my_shares)') }),
  output: z.object({ removed: grantViewSchema }),
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true },
});

@Injectable()
@McpTool(spec)
export class MemoryUnshareTool implements McpToolHandler<typeof spec.input, typeof spec.output> {
  constructor(private readonly sharing: MemorySharing) {}

  async run(input: z.output<typeof spec.input>, call: ProjectToolCall) {
    const removed = toGrantView(await this.sharing.unshare(call.project, call.principal, input.id));
    return { structured: { removed }, text: `Removed ${grantLine(removed)}.` };
  }
}
