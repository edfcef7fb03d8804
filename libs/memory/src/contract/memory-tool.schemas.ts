import { z } from 'zod';
import { memorySchema, relationSchema } from './memory.dto';
import { type MemoryRelation } from './memory.types';

/**
 * Schemas the memory tools share beyond the REST DTOs: the REST API carries ids in its path
 * and coerces query strings, a tool takes everything as typed JSON arguments.
 */
export const memoryIdSchema = z.uuid(
  'must be a memory id (a UUID returned by memory_store, memory_recall or memory_list)',
);

/** Page size for list-like tools: the REST bounds, without query-string coercion. */
export const pageLimitSchema = z.number().int().min(1).max(200).default(20).describe('Page size (1-200)');
export const cursorSchema = z
  .uuid('must be the nextCursor of a previous page')
  .optional()
  .describe("The previous page's nextCursor");

export const relationViewSchema = relationSchema;

export const toRelationView = (relation: MemoryRelation): z.infer<typeof relationViewSchema> => ({
  id: relation.id,
  fromId: relation.fromId,
  toId: relation.toId,
  type: relation.type,
  note: relation.note,
  createdAt: relation.createdAt.toISOString(),
});

export const historyResultSchema = z.object({
  memory: memorySchema,
  versions: z
    .array(
      z.object({
        version: z.number().describe('The version this snapshot was; the current one is memory.version'),
        snapshot: z.record(z.string(), z.unknown()).describe('The memory as it was at that version'),
        changedBy: z.object({ userId: z.string().nullable(), agentId: z.string().nullable() }),
        reason: z.string().nullable(),
        createdAt: z.iso.datetime(),
      }),
    )
    .describe('Earlier versions, newest first'),
});

export const relatedResultSchema = z.object({
  items: z.array(
    z.object({
      relation: relationViewSchema,
      direction: z.enum(['outgoing', 'incoming']).describe('outgoing: this memory is the relation source'),
      memory: memorySchema.describe('The memory at the other end'),
    }),
  ),
});

export const verifyResultSchema = z.object({
  stale: z.boolean().describe('true: the source changed since the memory was written'),
  memory: memorySchema,
});

export const deleteResultSchema = z.object({ id: z.uuid(), deleted: z.literal(true) });
