import { Injectable } from '@nestjs/common';
import { agentIdSchema } from '@cairn/common';
import { memoryIdSchema, tagSchema } from '@cairn/memory';
import { defineTool, McpTool, type McpToolHandler, type ProjectToolCall } from '@cairn/mcp';
import { z } from 'zod';
import { grantViewSchema, toGrantView } from '../contract/sharing.dto';
import { MemorySharing } from '../memory-sharing.service';
import { grantLine } from './sharing-text';

const spec = defineTool({
  name: 'memory_share',
  title: 'Share a memory',
  toolset: 'sharing',
  permission: 'memory.share',
  scope: 'project',
  description: [
    'Share one of your memories (id) with a user (userId) or an agent (agentId), read or write; or with tag, every',
    'memory of yours carrying it, later ones too (allProjects: in every project). Write lets them update, never',
    'delete or re-share. Sharing again changes the permission. Example: {"id": "<memory id>", "agentId": "cursor:bob"}',
  ].join(' '),
  // One memory (id) or a rule (tag), and one grantee: which combination is the service's to check,
  // since a tool's input cannot carry refinements (the gateway extends it with `project`).
  input: z.strictObject({
    id: memoryIdSchema.optional(),
    userId: z.uuid().optional(),
    agentId: agentIdSchema.optional(),
    tag: tagSchema.optional(),
    allProjects: z.boolean().optional(),
    permission: z.enum(['read', 'write']).default('read'),
  }),
  output: z.object({ grant: grantViewSchema, created: z.boolean().describe('false: an existing share was changed') }),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true },
});

@Injectable()
@McpTool(spec)
export class MemoryShareTool implements McpToolHandler<typeof spec.input, typeof spec.output> {
  constructor(private readonly sharing: MemorySharing) {}

  async run(input: z.output<typeof spec.input>, call: ProjectToolCall) {
    const { project: _project, ...args } = input as typeof input & { project?: string };
    const result = await this.sharing.share(call.project, call.principal, args);
    const grant = toGrantView(result.grant);
    return {
      structured: { grant, created: result.created },
      text: `${result.created ? 'Shared' : 'Changed'}: ${grantLine(grant)}. memory_unshare with id ${grant.id} takes it back.`,
    };
  }
}
