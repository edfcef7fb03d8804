import { Injectable } from '@nestjs/common';
import { defineTool, McpTool, type McpToolHandler, type ProjectToolCall } from '@cairn/mcp';
import { z } from 'zod';
import { memorySchema, toMemoryView } from '../contract/memory.dto';
import { MemoryReader } from '../memory-reader.service';
import { viewerOf } from '../memory-access';
import { memoryDetails, memoryLine } from './memory-text';
import { memoryIdSchema } from '../contract/memory-tool.schemas';

const spec = defineTool({
  name: 'memory_get',
  title: 'Get a memory',
  toolset: 'core',
  permission: 'memory.read',
  scope: 'project',
  description: ['Read one memory with all its fields, e.g. before updating it.', 'Example: {"id": "<memory id>"}'].join(
    ' ',
  ),
  input: z.strictObject({ id: memoryIdSchema }),
  output: memorySchema,
  annotations: { readOnlyHint: true, idempotentHint: true },
});

@Injectable()
@McpTool(spec)
export class MemoryGetTool implements McpToolHandler<typeof spec.input, typeof spec.output> {
  constructor(private readonly reader: MemoryReader) {}

  async run(input: z.output<typeof spec.input>, call: ProjectToolCall) {
    const memory = toMemoryView(await this.reader.get(call.project, viewerOf(call.principal), input.id));
    return { structured: memory, text: `${memoryLine(memory)}\n${memoryDetails(memory)}` };
  }
}
