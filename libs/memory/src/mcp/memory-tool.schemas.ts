import { toolListing } from '@cairn/mcp';
import { z } from 'zod';
import { type MemoryRelation } from '../memory-relations.repository';
import { keywordsSchema, sourceSchema, tagsSchema } from '../http/memory-fields.schema';
import { explanationSchema, recallSchema } from '../http/memory-query.dto';
import { memorySchema, relationSchema, storeMemorySchema, updateMemorySchema } from '../http/memory.dto';

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

/*
 * What the tool list shows of the schemas the memory tools share with the REST API (listing
 * only: validation and the REST documentation keep theirs). memory_get lists a memory's
 * fields; every other tool that returns one names it instead of repeating them. Arguments the
 * tool's description or name already explains carry no description of their own.
 */
toolListing.add(memorySchema, { summary: 'A memory, as memory_get returns it' });
toolListing.add(relationSchema, { summary: 'A relation, as memory_link returns it' });
toolListing.add(relatedResultSchema.shape.items.element.shape.memory, {
  description: 'The memory at the other end, as memory_get returns it',
});
toolListing.add(explanationSchema, {
  summary: "With explain: each signal's rank and score, the boosts, the final score",
});
toolListing.add(memorySchema.shape.embedded, { description: 'Has a vector of the active model' });
toolListing.add(historyResultSchema.shape.versions.element.shape.version, {
  description: 'Its version; memory.version is the current one',
});
toolListing.add(tagsSchema, { description: '' });
toolListing.add(keywordsSchema, { description: 'Synonyms a future question might use' });
toolListing.add(storeMemorySchema.shape.pinned, { description: 'Exempt from decay and pruning' });
toolListing.add(sourceSchema.unwrap().shape.path, { description: 'Repository-relative path' });
toolListing.add(sourceSchema.unwrap().shape.contentHash, { description: "The file's content hash, for memory_verify" });
toolListing.add(recallSchema.shape.query, { description: '' });
toolListing.add(recallSchema.shape.explain, { description: '' });
// memory_update takes memory_store's fields, which memory_store's listing explains.
toolListing.add(updateMemorySchema.shape.source, { summary: 'As in memory_store; null removes it' });
toolListing.add(updateMemorySchema.shape.keywords, { description: '' });
