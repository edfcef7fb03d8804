import { Injectable } from '@nestjs/common';
import { defineTool, McpTool, type McpToolHandler, type ProjectToolCall } from '@cairn/mcp';
import { type z } from 'zod';
import { toMemoryView, verifySchema } from '../contract/memory.dto';
import { MemoryLinks } from '../memory-relations.service';
import { viewerOf } from '../memory-access';
import { memoryIdSchema, verifyResultSchema } from '../contract/memory-tool.schemas';

const spec = defineTool({
  name: 'memory_verify',
  title: 'Verify a memory against its source',
  toolset: 'core',
  permission: 'memory.write',
  scope: 'project',
  description: [
    "Check a memory written from a file: send the file's current content hash (the server cannot read the file);",
    'it is marked stale if the recorded hash differs. Example: {"id": "<memory id>", "contentHash": "sha256:9f86d081"}',
  ].join(' '),
  input: verifySchema.extend({
    id: memoryIdSchema,
  }),
  output: verifyResultSchema,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true },
});

@Injectable()
@McpTool(spec)
export class MemoryVerifyTool implements McpToolHandler<typeof spec.input, typeof spec.output> {
  constructor(private readonly links: MemoryLinks) {}

  async run(input: z.output<typeof spec.input>, call: ProjectToolCall) {
    const result = await this.links.verify(call.project, viewerOf(call.principal), input.id, input.contentHash);
    const memory = toMemoryView(result.memory);
    const where = memory.source ? ` (${memory.source.path})` : '';
    return {
      structured: { stale: result.stale, memory },
      text: result.stale
        ? `STALE: ${memory.id}${where} was written from a different version of the file; re-check and update it.`
        : `Verified: ${memory.id}${where} matches the current file.`,
    };
  }
}
