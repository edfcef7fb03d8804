import { Injectable } from '@nestjs/common';
import { defineTool, McpTool, type McpToolHandler, type ProjectToolCall } from '@cairn/mcp';
import { type z } from 'zod';
import { categoriesInputSchema, categoriesResultSchema } from '../contract/memory-topics.dto';
import { viewerOf } from '../memory-access';
import { MemoryTopics } from '../memory-topics.service';

const spec = defineTool({
  name: 'memory_categories',
  title: 'Memories per category',
  toolset: 'maintenance',
  permission: 'memory.read',
  scope: 'project',
  description:
    'How many memories you can see per category (decision, bug…), each with its newest few as snippets: an ' +
    'overview before memory_list. Example: {"perCategory": 2}',
  input: categoriesInputSchema,
  output: categoriesResultSchema,
  annotations: { readOnlyHint: true, idempotentHint: true },
});

@Injectable()
@McpTool(spec)
export class MemoryCategoriesTool implements McpToolHandler<typeof spec.input, typeof spec.output> {
  constructor(private readonly topics: MemoryTopics) {}

  async run(input: z.output<typeof spec.input>, call: ProjectToolCall) {
    const result = await this.topics.categoriesOf(call.project, viewerOf(call.principal), input.perCategory);
    const lines = result.categories.flatMap((row) => [
      `${row.category}: ${row.memories} (newest ${row.newestAt})`,
      ...row.newest.map((memory) => `  - [${memory.id}] ${memory.snippet}`),
    ]);
    return {
      structured: result,
      text: lines.length === 0 ? 'No memories.' : [`${result.memories} memories:`, ...lines].join('\n'),
    };
  }
}
