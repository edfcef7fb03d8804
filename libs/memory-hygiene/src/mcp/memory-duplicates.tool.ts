import { Injectable } from '@nestjs/common';
import { defineTool, McpTool, type McpToolHandler, type ProjectToolCall } from '@cairn/mcp';
import { z } from 'zod';
import { toMemoryView, viewerOf } from '@cairn/memory';
import { DuplicatesDto, duplicatesCursor } from '../contract/memory-hygiene.dto';
import { MemoryHygiene } from '../memory-hygiene.service';

const spec = defineTool({
  name: 'memory_duplicates',
  title: 'Duplicate candidates',
  toolset: 'maintenance',
  permission: 'memory.read',
  scope: 'project',
  description: [
    'Pairs of memories that look like duplicates (same text, or similar embeddings), to tidy with memory_merge;',
    'a page at a time, newest memories first: pass nextCursor as cursor for more. Example: {"threshold": 0.95}',
  ].join(' '),
  // The REST query's bounds, as typed JSON instead of coerced query strings.
  input: z.strictObject({
    threshold: z.number().min(0.5).max(1).default(0.92).describe('Minimum cosine similarity of vectors (0.5-1)'),
    limit: z.number().int().min(1).max(200).default(20).describe('At most this many pairs per page'),
    cursor: duplicatesCursor.optional(),
    source: z
      .enum(['live', 'scan'])
      .default('live')
      .describe('live: computed now over recent memories; scan: what the last periodic duplicate scan found'),
  }),
  output: DuplicatesDto.schema,
  annotations: { readOnlyHint: true, idempotentHint: true },
});

@Injectable()
@McpTool(spec)
export class MemoryDuplicatesTool implements McpToolHandler<typeof spec.input, typeof spec.output> {
  constructor(private readonly hygiene: MemoryHygiene) {}

  async run(input: z.output<typeof spec.input>, call: ProjectToolCall) {
    const { pairs, memories, nextCursor } =
      input.source === 'scan'
        ? await this.hygiene.scanned(call.project, viewerOf(call.principal), input.limit)
        : await this.hygiene.duplicates(call.project, viewerOf(call.principal), input);
    const views = memories.map(toMemoryView);
    const content = new Map(views.map((memory) => [memory.id, memory.content.slice(0, 100)]));
    // A pair per line: both full ids (what memory_merge needs) and enough text to judge them.
    const lines = pairs.map(
      (pair, index) =>
        `${index + 1}. ${pair.similarity.toFixed(3)} ${pair.reason}: ${pair.a} "${content.get(pair.a) ?? ''}" ~ ${pair.b} "${content.get(pair.b) ?? ''}"`,
    );
    const more = nextCursor ? [`More memories to examine: {"cursor": "${nextCursor}"}`] : [];
    return {
      structured: { pairs, memories: views, nextCursor },
      text: [
        ...(lines.length ? lines : [`No duplicate candidates${more.length ? ' on this page' : ''}.`]),
        ...more,
      ].join('\n'),
    };
  }
}
