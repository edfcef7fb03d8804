import { Injectable } from '@nestjs/common';
import { defineTool, McpTool, type McpToolHandler, type ProjectToolCall } from '@cairn/mcp';
import { z } from 'zod';
import { WorkingMemoryService } from '../working-memory.service';
import { wmKeySchema } from '../contract/working-memory.fields';

const spec = defineTool({
  name: 'forget',
  title: 'Forget (working memory)',
  toolset: 'context',
  permission: 'working_memory.use',
  scope: 'project',
  description: [
    'Delete one entry of your working memory, e.g. when its task is done (not_found if there is none).',
    'Long-term memories are not affected. Example: {"key": "current_task"}',
  ].join(' '),
  input: z.strictObject({ key: wmKeySchema }),
  output: z.object({ key: z.string(), forgotten: z.literal(true) }),
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true },
});

@Injectable()
@McpTool(spec)
export class ForgetTool implements McpToolHandler<typeof spec.input, typeof spec.output> {
  constructor(private readonly workingMemory: WorkingMemoryService) {}

  async run(input: z.output<typeof spec.input>, call: ProjectToolCall) {
    await this.workingMemory.forget(call.project, call.principal, input.key);
    return {
      structured: { key: input.key, forgotten: true as const },
      text: `Forgot "${input.key}" in ${call.project}.`,
    };
  }
}
