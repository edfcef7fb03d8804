import { Injectable } from '@nestjs/common';
import { defineTool, McpTool, type McpToolHandler, type ProjectToolCall } from '@cairn/mcp';
import { type z } from 'zod';
import { memoryIdSchema, toMemoryView } from '@cairn/memory';
import { MergeDto, MergeResultDto } from '../contract/memory-hygiene.dto';
import { MemoryMerger } from '../memory-merge.service';

const spec = defineTool({
  name: 'memory_merge',
  title: 'Merge duplicate memories',
  toolset: 'maintenance',
  permission: 'memory.maintain',
  scope: 'project',
  description: [
    'Merge duplicates into the target memory: it gains their tags, keywords and best importance and confidence;',
    'they become superseded by it (out of default recall, history kept).',
    'Example: {"id": "<memory id>", "sourceIds": ["<duplicate id>"], "reason": "same fact"}',
  ].join(' '),
  input: MergeDto.schema.extend({ id: memoryIdSchema.describe('The memory to keep (the merge target)') }),
  output: MergeResultDto.schema,
  // Destructive: the sources leave recall and no tool undoes a merge.
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false },
});

@Injectable()
@McpTool(spec)
export class MemoryMergeTool implements McpToolHandler<typeof spec.input, typeof spec.output> {
  constructor(private readonly merger: MemoryMerger) {}

  async run(input: z.output<typeof spec.input>, call: ProjectToolCall) {
    const result = await this.merger.merge(call.project, call.principal, input.id, {
      sourceIds: input.sourceIds,
      reason: input.reason,
    });
    const memory = toMemoryView(result.memory);
    return {
      structured: { ...result, memory },
      text: `Merged ${result.sources.join(', ')} into ${memory.id} (now v${memory.version}); the sources are superseded by it.`,
    };
  }
}
