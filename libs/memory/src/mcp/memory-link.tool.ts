import { Injectable } from '@nestjs/common';
import { defineTool, McpTool, type McpToolHandler, type ProjectToolCall } from '@cairn/mcp';
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
    'Relate one memory to another; linking again is harmless. supersedes also hides the target from default recall.',
    'Example: {"id": "<newer memory id>", "toId": "<older memory id>", "type": "supersedes"}',
  ].join(' '),
  input: linkSchema.extend({
    id: memoryIdSchema.describe('For supersedes: the newer memory'),
    toId: memoryIdSchema,
  }),
  output: relationViewSchema,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true },
});

@Injectable()
@McpTool(spec)
export class MemoryLinkTool implements McpToolHandler<typeof spec.input, typeof spec.output> {
  constructor(private readonly links: MemoryLinks) {}

  async run(input: z.output<typeof spec.input>, call: ProjectToolCall) {
    const { toId, type, note } = input;
    const relation = toRelationView(
      await this.links.link(call.project, call.principal, input.id, { toId, type, note }),
    );
    const retired = type === 'supersedes' ? ' (target retired from default recall)' : '';
    return {
      structured: relation,
      text: `Linked ${relation.fromId} -${relation.type}-> ${relation.toId}${retired}; relation ${relation.id}.`,
    };
  }
}
