import { Injectable } from '@nestjs/common';
import { defineTool, McpTool, type McpToolHandler, type ProjectToolCall } from '@cairn/mcp';
import { type z } from 'zod';
import { topicsInputSchema, topicsResultSchema } from '../contract/memory-topics.dto';
import { viewerOf } from '../memory-access';
import { MemoryTopics } from '../memory-topics.service';

const spec = defineTool({
  name: 'memory_topics',
  title: 'Topics of memories',
  toolset: 'maintenance',
  permission: 'memory.read',
  scope: 'project',
  description:
    'What the memories you can see are about: topics from tags, keywords and #hashtags, most frequent first, with ' +
    'counts per source. Per category: memory_categories. Example: {"prefix": "deploy"}',
  input: topicsInputSchema,
  output: topicsResultSchema,
  annotations: { readOnlyHint: true, idempotentHint: true },
});

@Injectable()
@McpTool(spec)
export class MemoryTopicsTool implements McpToolHandler<typeof spec.input, typeof spec.output> {
  constructor(private readonly topics: MemoryTopics) {}

  async run(input: z.output<typeof spec.input>, call: ProjectToolCall) {
    const result = await this.topics.topicsOf(call.project, viewerOf(call.principal), input.prefix, input.limit);
    const lines = result.topics.map((row) => {
      const from = Object.entries(row.sources).flatMap(([source, n]) => (n > 0 ? [`${source} ${n}`] : []));
      return `- ${row.topic}: ${row.memories} (${from.join(', ')})`;
    });
    const partial = result.hashtagScan.complete
      ? ''
      : `Hashtags counted over the newest ${result.hashtagScan.scanned} memories containing "#".`;
    return {
      structured: result,
      text: [
        lines.length === 0 ? 'No topics.' : `${lines.length} topics over ${result.memories} memories:`,
        ...lines,
        partial,
      ]
        .filter(Boolean)
        .join('\n'),
    };
  }
}
