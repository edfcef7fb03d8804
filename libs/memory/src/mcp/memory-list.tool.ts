import { Injectable } from '@nestjs/common';
import { defineTool, McpTool, type McpToolHandler, type ProjectToolCall, toolListing } from '@cairn/mcp';
import { z } from 'zod';
import { memoryPageSchema, searchFiltersSchema, toListFilter } from '../contract/memory-query.dto';
import { toMemoryView } from '../contract/memory.dto';
import { MemoryReader } from '../memory-reader.service';
import { viewerOf } from '../memory-access';
import { memoryLines, nextPageLine } from './memory-text';
import { cursorSchema, pageLimitSchema } from '../contract/memory-tool.schemas';

const spec = defineTool({
  name: 'memory_list',
  title: 'List memories',
  toolset: 'core',
  permission: 'memory.read',
  scope: 'project',
  description: [
    "Browse memories newest first, with memory_recall's filters (e.g. every decision); pass nextCursor back as",
    'cursor for more. Questions: memory_recall. Example: {"filters": {"categories": ["decision"]}}',
  ].join(' '),
  input: z.strictObject({
    filters: searchFiltersSchema.default({}).describe('The same filters as memory_recall'),
    limit: pageLimitSchema,
    cursor: cursorSchema,
  }),
  output: memoryPageSchema,
  annotations: { readOnlyHint: true, idempotentHint: true },
});

// memory_recall's listing spells the filters out; this one names them (the server checks them all the same).
toolListing.add(spec.input.shape.filters, { summary: 'The same filters as memory_recall' });

@Injectable()
@McpTool(spec)
export class MemoryListTool implements McpToolHandler<typeof spec.input, typeof spec.output> {
  constructor(private readonly reader: MemoryReader) {}

  async run(input: z.output<typeof spec.input>, call: ProjectToolCall) {
    const page = await this.reader.list(
      call.project,
      viewerOf(call.principal),
      toListFilter(input.filters),
      input.limit,
      input.cursor,
    );
    const items = page.items.map(toMemoryView);
    const head = items.length === 0 ? '' : `${items.length} memories, newest first:`;
    return {
      structured: { items, nextCursor: page.nextCursor },
      text: [head, memoryLines(items, 'No memories match.'), nextPageLine(page.nextCursor)].filter(Boolean).join('\n'),
    };
  }
}
