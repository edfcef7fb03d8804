import { Injectable } from '@nestjs/common';
import { defineTool, McpTool, type McpToolHandler, type ToolCall } from '@cairn/mcp';
import { type z } from 'zod';
import { RememberResultDto, toEntryView, toEvictedView } from '../contract/working-memory.dto';
import { WorkingMemoryService } from '../working-memory.service';
import { rememberSchema } from '../contract/working-memory.fields';

const spec = defineTool({
  name: 'remember',
  title: 'Remember (working memory)',
  toolset: 'context',
  permission: 'working_memory.use',
  scope: 'project',
  description: [
    'Keep a note in your private working memory for this project: the current task, a plan, a file you are in the',
    'middle of. Writing a key again replaces its value. Only you (this agent) see it; recall_context shows it at the',
    'start of your next session. At the cap, the least important entries move into long-term memory.',
    'Use memory_store instead for facts the whole team should know.',
    'Example: {"key": "current_task", "value": "Migrating the billing API to Fastify; routes done, tests next", "importance": 4}',
  ].join(' '),
  input: rememberSchema,
  output: RememberResultDto.schema,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true },
});

@Injectable()
@McpTool(spec)
export class RememberTool implements McpToolHandler<typeof spec.input, typeof spec.output> {
  constructor(private readonly workingMemory: WorkingMemoryService) {}

  async run(input: z.output<typeof spec.input>, call: ToolCall) {
    // Named fields only: the service re-validates strictly and the input also carries `project`.
    const { key, value, importance } = input;
    const result = await this.workingMemory.remember(call.project!, call.principal, { key, value, importance });
    const evicted = toEvictedView(result.evicted);
    return {
      structured: { entry: toEntryView(result.entry), evicted },
      text: [
        `Remembered "${result.entry.key}" (importance ${result.entry.importance}) in ${call.project}.`,
        ...evicted.map((item) => `Moved "${item.key}" to long-term memory ${item.memoryId} (cap reached).`),
      ].join('\n'),
    };
  }
}
