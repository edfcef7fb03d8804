import { Injectable } from '@nestjs/common';
import { defineTool, McpTool, type McpToolHandler, type ProjectToolCall } from '@cairn/mcp';
import { z } from 'zod';
import {
  cursorSchema,
  memoryLines,
  memoryPageSchema,
  MemoryReader,
  nextPageLine,
  pageLimitSchema,
  toMemoryView,
  viewerOf,
} from '@cairn/memory';

const spec = defineTool({
  name: 'memory_stale',
  title: 'Stale memories',
  toolset: 'maintenance',
  permission: 'memory.read',
  scope: 'project',
  description: [
    'Memories marked stale because their source file changed (see memory_verify), newest first: facts to re-check,',
    'then update or delete. Example: {"limit": 20}',
  ].join(' '),
  input: z.strictObject({ limit: pageLimitSchema, cursor: cursorSchema }),
  output: memoryPageSchema,
  annotations: { readOnlyHint: true, idempotentHint: true },
});

@Injectable()
@McpTool(spec)
export class MemoryStaleTool implements McpToolHandler<typeof spec.input, typeof spec.output> {
  constructor(private readonly reader: MemoryReader) {}

  async run(input: z.output<typeof spec.input>, call: ProjectToolCall) {
    const page = await this.reader.stale(call.project, viewerOf(call.principal), input.limit, input.cursor);
    const items = page.items.map(toMemoryView);
    return {
      structured: { items, nextCursor: page.nextCursor },
      text: [memoryLines(items, 'No stale memories.'), nextPageLine(page.nextCursor)].filter(Boolean).join('\n'),
    };
  }
}
