import { Injectable } from '@nestjs/common';
import { defineTool, McpTool, type McpToolHandler, type ToolCall } from '@cairn/mcp';
import { z } from 'zod';
import { MemoryWriter } from '../memory-writer.service';
import { deleteResultSchema, memoryIdSchema } from '../contract/memory-tool.schemas';

const spec = defineTool({
  name: 'memory_delete',
  title: 'Delete a memory',
  toolset: 'core',
  permission: 'memory.write',
  scope: 'project',
  description: [
    'Delete a memory that is wrong or no longer useful; only its author or a tenant admin may.',
    'It disappears from recall and lists for every agent. Prefer memory_update to correct a fact, or',
    'memory_store with supersedes to replace it while keeping the trail.',
    'Example: {"id": "0b7e4c2a-5d1f-4e8a-9c3b-2f6d8e1a4b5c"}',
  ].join(' '),
  input: z.strictObject({ id: memoryIdSchema }),
  output: deleteResultSchema,
  // Deleting twice changes nothing more (the second call reports "not found").
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true },
});

@Injectable()
@McpTool(spec)
export class MemoryDeleteTool implements McpToolHandler<typeof spec.input, typeof spec.output> {
  constructor(private readonly writer: MemoryWriter) {}

  async run(input: z.output<typeof spec.input>, call: ToolCall) {
    await this.writer.delete(call.project!, call.principal, input.id);
    return { structured: { id: input.id, deleted: true as const }, text: `Deleted ${input.id}.` };
  }
}
