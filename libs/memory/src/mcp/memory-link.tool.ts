import { Injectable } from '@nestjs/common';
import { defineTool, McpTool, type McpToolHandler, type ToolCall } from '@cairn/mcp';
import { z } from 'zod';
import { linkSchema } from '../contract/memory.dto';
import { MemoryLinks } from '../memory-relations.service';
import { memoryIdSchema, relationViewSchema, toRelationView } from '../contract/memory-tool.schemas';

const spec = defineTool({
  name: 'memory_link',
  title: 'Link two memories',
  toolset: 'core',
  permission: 'memory.write',
  scope: 'project',
  description: [
    'Record a typed relation from one memory to another: depends_on, contradicts, elaborates, related_to,',
    'part_of or supersedes (which also retires the target from default recall). Linking again is harmless.',
    'Use it when two facts belong together, or a newer fact replaces an older one.',
    'Example: {"id": "0b7e4c2a-5d1f-4e8a-9c3b-2f6d8e1a4b5c", "toId": "7f3d2a1b-8c4e-4f6a-b9d0-1e2c3a4b5d6e", "type": "elaborates"}',
  ].join(' '),
  input: linkSchema.extend({
    id: memoryIdSchema.describe('The relation source (e.g. the newer memory for supersedes)'),
    toId: memoryIdSchema.describe('The relation target'),
  }),
  output: relationViewSchema,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true },
});

@Injectable()
@McpTool(spec)
export class MemoryLinkTool implements McpToolHandler<typeof spec.input, typeof spec.output> {
  constructor(private readonly links: MemoryLinks) {}

  async run(input: z.output<typeof spec.input>, call: ToolCall) {
    const { toId, type, note } = input;
    const relation = toRelationView(
      await this.links.link(call.project!, call.principal, input.id, { toId, type, note }),
    );
    const retired = type === 'supersedes' ? ' (target retired from default recall)' : '';
    return {
      structured: relation,
      text: `Linked ${relation.fromId} -${relation.type}-> ${relation.toId}${retired}; relation ${relation.id}.`,
    };
  }
}
