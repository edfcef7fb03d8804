import { Injectable } from '@nestjs/common';
import { defineTool, McpTool, type McpToolHandler, type ProjectToolCall, toolListing } from '@cairn/mcp';
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
    'Keep a private note for this project (task, plan); the same key replaces it. recall_context shows it next',
    'session; at the cap the least important move to long-term memory.',
    'Example: {"key": "current_task", "value": "Billing API to Fastify: tests next"}',
  ].join(' '),
  input: rememberSchema,
  output: RememberResultDto.schema,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true },
});

// Listing only (the REST documentation keeps the long form).
toolListing.add(RememberResultDto.schema.shape.evicted, {
  description: 'Entries moved to long-term memory at the cap',
});

@Injectable()
@McpTool(spec)
export class RememberTool implements McpToolHandler<typeof spec.input, typeof spec.output> {
  constructor(private readonly workingMemory: WorkingMemoryService) {}

  async run(input: z.output<typeof spec.input>, call: ProjectToolCall) {
    // Named fields only: the service re-validates strictly and the input also carries `project`.
    const { key, value, importance } = input;
    const result = await this.workingMemory.remember(call.project, call.principal, { key, value, importance });
    const evicted = toEvictedView(result.evicted);
    return {
      structured: { entry: toEntryView(result.entry), evicted, redacted: [...result.redacted] },
      text: [
        `Remembered "${result.entry.key}" (importance ${result.entry.importance}) in ${call.project}.`,
        ...evicted.map((item) => `Moved "${item.key}" to long-term memory ${item.memoryId} (cap reached).`),
        ...(result.redacted.length > 0
          ? [`Secrets replaced by placeholders: ${result.redacted.map((r) => `${r.type} ×${r.count}`).join(', ')}.`]
          : []),
      ].join('\n'),
    };
  }
}
