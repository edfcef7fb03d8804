import { Injectable } from '@nestjs/common';
import { defineTool, McpTool, type McpToolHandler, type ToolCall } from '@cairn/mcp';
import { z } from 'zod';
import { memorySchema, toMemoryView } from '../contract/memory.dto';
import { MemoryReader } from '../memory-reader.service';
import { memoryDetails, memoryLine } from './memory-text';
import { memoryIdSchema } from '../contract/memory-tool.schemas';

const spec = defineTool({
  name: 'memory_get',
  title: 'Get a memory',
  toolset: 'core',
  permission: 'memory.read',
  scope: 'project',
  description: [
    'Read one memory by id with all its fields (tags, keywords, source, author, version, flags).',
    'Use it when a recall or list result needs a closer look, or before updating it.',
    'Example: {"id": "0b7e4c2a-5d1f-4e8a-9c3b-2f6d8e1a4b5c"}',
  ].join(' '),
  input: z.strictObject({ id: memoryIdSchema }),
  output: memorySchema,
  annotations: { readOnlyHint: true, idempotentHint: true },
});

@Injectable()
@McpTool(spec)
export class MemoryGetTool implements McpToolHandler<typeof spec.input, typeof spec.output> {
  constructor(private readonly reader: MemoryReader) {}

  async run(input: z.output<typeof spec.input>, call: ToolCall) {
    const memory = toMemoryView(await this.reader.get(call.project!, input.id));
    return { structured: memory, text: `${memoryLine(memory)}\n${memoryDetails(memory)}` };
  }
}
