import { Injectable } from '@nestjs/common';
import { defineTool, McpTool, type McpToolHandler, type ToolCall } from '@cairn/mcp';
import { type z } from 'zod';
import { toMemoryView, verifySchema } from '../contract/memory.dto';
import { MemoryLinks } from '../memory-relations.service';
import { memoryIdSchema, verifyResultSchema } from '../contract/memory-tool.schemas';

const spec = defineTool({
  name: 'memory_verify',
  title: 'Verify a memory against its source',
  toolset: 'core',
  permission: 'memory.write',
  scope: 'project',
  description: [
    "Check a memory written from a source file: send the file's current content hash (you have the file, the",
    'server does not); the memory is marked stale when it differs from the hash recorded with it, verified otherwise.',
    'Use it when you touch a file that memories cite, or before trusting an old fact.',
    'Example: {"id": "0b7e4c2a-5d1f-4e8a-9c3b-2f6d8e1a4b5c", "contentHash": "sha256:9f86d081884c7d65"}',
  ].join(' '),
  input: verifySchema.extend({
    id: memoryIdSchema,
    contentHash: verifySchema.shape.contentHash.describe("The source file's current content hash"),
  }),
  output: verifyResultSchema,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true },
});

@Injectable()
@McpTool(spec)
export class MemoryVerifyTool implements McpToolHandler<typeof spec.input, typeof spec.output> {
  constructor(private readonly links: MemoryLinks) {}

  async run(input: z.output<typeof spec.input>, call: ToolCall) {
    const result = await this.links.verify(call.project!, input.id, input.contentHash);
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
