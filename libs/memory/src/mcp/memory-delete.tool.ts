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
    'Delete a wrong or useless memory (yours; any as an admin). To fix it use memory_update; to replace it keeping',
    'the trail, memory_store with supersedes. Example: {"id": "<memory id>"}',
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
