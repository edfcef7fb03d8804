import { Injectable } from '@nestjs/common';
import { defineTool, McpTool, type McpToolHandler, type ProjectToolCall } from '@cairn/mcp';
import { z } from 'zod';
import { toMemoryView } from '../contract/memory.dto';
import { MemoryReader } from '../memory-reader.service';
import { viewerOf } from '../memory-access';
import { RELATION_TYPES } from '../contract/memory.types';
import { memoryLine } from './memory-text';
import { memoryIdSchema, relatedResultSchema, toRelationView } from '../contract/memory-tool.schemas';

const spec = defineTool({
  name: 'memory_related',
  title: 'Related memories',
  toolset: 'core',
  permission: 'memory.read',
  scope: 'project',
  description: [
    'The memories linked to one memory, both ways, with the relation: follow a decision to what it depends on,',
    'contradicts or replaced it. Example: {"id": "<memory id>", "type": "contradicts"}',
  ].join(' '),
  input: z.strictObject({
    id: memoryIdSchema,
    type: z.enum(RELATION_TYPES).optional().describe('Only relations of this type'),
  }),
  output: relatedResultSchema,
  annotations: { readOnlyHint: true, idempotentHint: true },
});

@Injectable()
@McpTool(spec)
export class MemoryRelatedTool implements McpToolHandler<typeof spec.input, typeof spec.output> {
  constructor(private readonly reader: MemoryReader) {}

  async run(input: z.output<typeof spec.input>, call: ProjectToolCall) {
    const related = await this.reader.related(call.project, viewerOf(call.principal), input.id, input.type);
    const items = related.map((item) => ({
      relation: toRelationView(item.relation),
      direction: item.direction,
      memory: toMemoryView(item.memory),
    }));
    // "this -elaborates->" reads as a sentence whose subject is the asked-about memory.
    const lines = items.map(({ relation, direction, memory }) =>
      direction === 'outgoing'
        ? `this -${relation.type}-> ${memoryLine(memory)}`
        : `${relation.type} this <- ${memoryLine(memory)}`,
    );
    return {
      structured: { items },
      text: lines.length ? lines.join('\n') : `No memories are linked to ${input.id}.`,
    };
  }
}
