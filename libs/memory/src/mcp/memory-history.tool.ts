import { Injectable } from '@nestjs/common';
import { defineTool, McpTool, type McpToolHandler, type ProjectToolCall } from '@cairn/mcp';
import { z } from 'zod';
import { toMemoryView } from '../contract/memory.dto';
import { MemoryReader } from '../memory-reader.service';
import { viewerOf } from '../memory-access';
import { authorLabel, memoryLine } from './memory-text';
import { historyResultSchema, memoryIdSchema } from '../contract/memory-tool.schemas';

const spec = defineTool({
  name: 'memory_history',
  title: 'Memory history',
  toolset: 'core',
  permission: 'memory.read',
  scope: 'project',
  description: [
    "A memory's earlier versions, newest first: what it said, who changed it, when and why.",
    'Example: {"id": "<memory id>"}',
  ].join(' '),
  input: z.strictObject({ id: memoryIdSchema }),
  output: historyResultSchema,
  annotations: { readOnlyHint: true, idempotentHint: true },
});

@Injectable()
@McpTool(spec)
export class MemoryHistoryTool implements McpToolHandler<typeof spec.input, typeof spec.output> {
  constructor(private readonly reader: MemoryReader) {}

  async run(input: z.output<typeof spec.input>, call: ProjectToolCall) {
    const history = await this.reader.history(call.project, viewerOf(call.principal), input.id);
    const memory = toMemoryView(history.memory);
    const versions = history.versions.map((v) => ({ ...v, createdAt: v.createdAt.toISOString() }));
    // One line per version: what it was, and the change that replaced it.
    const lines = versions.map((v) => {
      const content = typeof v.snapshot.content === 'string' ? v.snapshot.content : '';
      const why = v.reason ? ` (${v.reason})` : '';
      return `v${v.version} until ${v.createdAt.slice(0, 16)} by ${authorLabel(v.changedBy)}${why}: ${content.slice(0, 200)}`;
    });
    return {
      structured: { memory, versions },
      text: [
        `now v${memory.version}: ${memoryLine(memory)}`,
        ...(lines.length ? lines : ['No earlier versions.']),
      ].join('\n'),
    };
  }
}
