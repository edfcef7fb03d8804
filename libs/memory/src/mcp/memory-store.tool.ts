import { Injectable } from '@nestjs/common';
import { defineTool, McpTool, type McpToolHandler, type ProjectToolCall } from '@cairn/mcp';
import { redactedLine } from '@cairn/secrets';
import { type z } from 'zod';
import { idempotencyKeySchema, storeMemorySchema, toMemoryView, writeResultSchema } from '../contract/memory.dto';
import { MemoryWriter } from '../memory-writer.service';
import { sealedLine } from './memory-text';
// What the tool list shows of the shared schemas (a memory, a search explanation).
import './memory-tool-listing';

const spec = defineTool({
  name: 'memory_store',
  title: 'Store a memory',
  toolset: 'core',
  permission: 'memory.write',
  scope: 'project',
  description: [
    'Store a durable fact, decision, bug or preference (scratch notes: remember); warns of',
    'contradictions. Example: {"content": "The API uses Fastify", "keywords": ["web framework"]}',
  ].join(' '),
  input: storeMemorySchema.extend({
    idempotencyKey: idempotencyKeySchema.optional().describe('Retries with it store once'),
  }),
  output: writeResultSchema,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false },
});

@Injectable()
@McpTool(spec)
export class MemoryStoreTool implements McpToolHandler<typeof spec.input, typeof spec.output> {
  constructor(private readonly writer: MemoryWriter) {}

  async run({ idempotencyKey, ...input }: z.output<typeof spec.input>, call: ProjectToolCall) {
    const result = await this.writer.store(call.project, call.principal, input, idempotencyKey);
    const memory = toMemoryView(result.memory);
    const warnings = result.warnings.map(
      (warning) => `! may contradict ${warning.memoryId} (${warning.strength}): ${warning.content.slice(0, 160)}`,
    );
    return {
      structured: { memory, warnings: result.warnings, embedding: result.embedding, redacted: result.redacted },
      text: [
        `${result.replayed ? 'Already stored (same idempotencyKey):' : 'Stored'} ${memory.id} [${memory.category} i${memory.importance}] in ${memory.project ?? 'every project'}${memory.scope === 'project' ? '' : ` (${memory.scope})`}.`,
        ...sealedLine(memory),
        ...warnings,
        ...redactedLine(result.redacted),
      ].join('\n'),
    };
  }
}
