import { Injectable } from '@nestjs/common';
import { BadRequestError } from '@cairn/common';
import { defineTool, McpTool, type McpToolHandler, type ProjectToolCall } from '@cairn/mcp';
import { redactedLine } from '@cairn/secrets';
import { z } from 'zod';
import { toMemoryView, updateMemorySchema, writeResultSchema } from '../contract/memory.dto';
import { MemoryWriter } from '../memory-writer.service';
import { sealedLine } from './memory-text';
import { memoryIdSchema } from '../contract/memory-tool.schemas';

const spec = defineTool({
  name: 'memory_update',
  title: 'Update a memory',
  toolset: 'core',
  permission: 'memory.write',
  scope: 'project',
  description: [
    'Change fields of a memory (as in memory_store); the old version stays in memory_history. Example:',
    '{"id": "<id>", "content": "Staging deploys run on merge", "reason": "pipeline changed"}',
  ].join(' '),
  // The REST body's refinement ("at least one field") is checked in run(): a refined object
  // cannot be extended with the `id` and `project` arguments.
  // expectedVersion (REST only) guards clients that replay queued writes; the tool list, which
  // every session pays for, leaves it out.
  input: z.strictObject({ id: memoryIdSchema, ...omitExpectedVersion(updateMemorySchema.shape) }),
  output: writeResultSchema,
  // Not destructive: the previous version stays in the history.
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false },
});

function omitExpectedVersion<T extends { expectedVersion: unknown }>(shape: T): Omit<T, 'expectedVersion'> {
  const { expectedVersion: _expectedVersion, ...rest } = shape;
  return rest;
}

@Injectable()
@McpTool(spec)
export class MemoryUpdateTool implements McpToolHandler<typeof spec.input, typeof spec.output> {
  constructor(private readonly writer: MemoryWriter) {}

  async run(input: z.output<typeof spec.input>, call: ProjectToolCall) {
    const { id, project: _project, ...changes } = input as typeof input & { project?: string };
    const changed = Object.entries(changes).filter(([key, value]) => key !== 'reason' && value !== undefined);
    if (changed.length === 0) {
      throw new BadRequestError('Give at least one field to change besides reason', undefined, 'nothing_to_change');
    }
    const result = await this.writer.update(call.project, call.principal, id, changes);
    const memory = toMemoryView(result.memory);
    const warnings = result.warnings.map(
      (warning) => `! may contradict ${warning.memoryId} (${warning.strength}): ${warning.content.slice(0, 160)}`,
    );
    return {
      structured: { memory, warnings: result.warnings, embedding: result.embedding, redacted: result.redacted },
      text: [
        `Updated ${memory.id} to v${memory.version} (${changed.map(([key]) => key).join(', ')} changed; earlier version kept).`,
        ...sealedLine(memory),
        ...warnings,
        ...redactedLine(result.redacted),
      ].join('\n'),
    };
  }
}
