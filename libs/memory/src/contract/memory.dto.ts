import { visibleTextSchema } from '@cairn/common';
import { redactedSchema } from '@cairn/secrets';
import { createZodDto } from 'nestjs-zod';
import { z } from 'zod';
import { type Memory, MEMORY_SCOPES, RELATION_TYPES } from './memory.types';
import {
  categorySchema,
  confidenceSchema,
  importanceSchema,
  keywordsSchema,
  memoryContentSchema,
  memoryParamsSchema,
  occurredAtSchema,
  projectParamSchema,
  sourceSchema,
  tagsSchema,
} from './memory-fields.schema';

export class ProjectParamDto extends createZodDto(projectParamSchema) {}
export class MemoryParamsDto extends createZodDto(memoryParamsSchema) {}

export const storeMemorySchema = z.strictObject({
  content: memoryContentSchema.describe('The fact, in one or a few sentences'),
  category: categorySchema.default('fact'),
  tags: tagsSchema.default([]),
  keywords: keywordsSchema.default([]),
  importance: importanceSchema.default(3).describe('1 (trivia) to 5 (critical)'),
  confidence: confidenceSchema.default(0.8),
  source: sourceSchema.optional().transform((value) => value ?? null),
  pinned: z.boolean().default(false).describe('Pinned memories are exempt from decay and pruning'),
  scope: z
    .enum([...MEMORY_SCOPES, 'tenant'])
    .optional()
    .describe(
      'Who sees it: private (the author, and whom it is shared with), project, team (every project; ' +
        'only orchestrators and admins store it directly). Absent: project, or private for agents when the ' +
        "tenant's agentDefaultScope says so. tenant: a team memory without a project",
    ),
  supersedes: z.array(z.uuid()).max(20).default([]).describe('Ids of older memories this one replaces'),
  occurredAt: occurredAtSchema.optional(),
  sensitive: z
    .boolean()
    .default(false)
    .describe('Encrypt the whole content: reads show [SECRET:sensitive:<id>], secret_get returns it'),
});
export class StoreMemoryDto extends createZodDto(storeMemorySchema) {}

/**
 * A client's key for one store (`Idempotency-Key` header, `idempotencyKey` tool argument): a
 * repeat with the same key returns the first store's memory. Printable ASCII, as a header can
 * carry it, and bounded.
 */
export const idempotencyKeySchema = z
  .string()
  .min(1)
  .max(200)
  // A refinement, not .regex(): the tool list (its size budget) need not spell the pattern out.
  .refine((key) => /^[\x21-\x7e]+$/.test(key), 'printable ASCII without spaces');

/**
 * Optimistic concurrency for a change made from an older read (an offline client's queued
 * write): the server refuses with 409 version_conflict when the memory is at another version,
 * so the change never lands on top of one its writer has not seen.
 */
export const expectedVersionSchema = z
  .number()
  .int()
  .min(1)
  .optional()
  .describe('Refuse (409) unless the memory is still at this version');

/** `DELETE …/memories/:id?expectedVersion=`: the same guard for a delete. */
export class DeleteMemoryQueryDto extends createZodDto(
  z.strictObject({
    expectedVersion: z.coerce
      .number()
      .int()
      .min(1)
      .optional()
      .describe('Refuse (409 version_conflict) unless the memory is still at this version'),
  }),
) {}

const UPDATABLE_MEMORY_FIELDS = [
  'content',
  'category',
  'tags',
  'keywords',
  'importance',
  'confidence',
  'source',
  'pinned',
  'supersedes',
  'occurredAt',
  'sensitive',
];

export const updateMemorySchema = z
  .strictObject({
    content: memoryContentSchema.optional(),
    category: categorySchema.optional(),
    tags: tagsSchema.optional(),
    keywords: keywordsSchema.optional(),
    importance: importanceSchema.optional(),
    confidence: confidenceSchema.optional(),
    source: sourceSchema.optional(),
    pinned: z.boolean().optional(),
    supersedes: z.array(z.uuid()).max(20).optional(),
    occurredAt: occurredAtSchema.optional(),
    sensitive: z
      .boolean()
      .optional()
      .describe('Absent: unchanged. false on a sensitive memory needs new content (it is never decrypted back)'),
    reason: visibleTextSchema(500).trim().optional().describe('Why it changed; kept in the history'),
    expectedVersion: expectedVersionSchema,
  })
  .refine(
    (body) => Object.keys(body).some((key) => key !== 'reason' && key !== 'expectedVersion'),
    'give at least one field to change',
  )
  // The refinement, stated in the document: some field other than `reason` and `expectedVersion`.
  .meta({ anyOf: UPDATABLE_MEMORY_FIELDS.map((field) => ({ required: [field] })) });
export class UpdateMemoryDto extends createZodDto(updateMemorySchema) {}

export const memorySchema = z.object({
  id: z.uuid(),
  project: z
    .string()
    .nullable()
    .describe('Project slug (for a team memory, where it started); null for a tenant-wide one'),
  scope: z.enum(MEMORY_SCOPES).describe('Who sees it: private (author and grantees), project, team (every project)'),
  content: z.string(),
  category: categorySchema,
  tags: z.array(z.string()),
  keywords: z.array(z.string()),
  importance: z.number(),
  confidence: z.number(),
  source: z.object({ path: z.string(), line: z.number().nullable(), contentHash: z.string().nullable() }).nullable(),
  stale: z.boolean(),
  verifiedAt: z.iso.datetime().nullable(),
  author: z.object({ userId: z.string().nullable(), agentId: z.string().nullable() }),
  pinned: z.boolean(),
  sensitive: z.boolean().describe('content is only the placeholder of the encrypted original'),
  archived: z.boolean(),
  supersededBy: z.string().nullable(),
  version: z.number(),
  accessCount: z.number(),
  lastAccessedAt: z.iso.datetime().nullable(),
  occurredAt: z.iso.datetime().describe('When the fact happened or was said'),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
  embedded: z.boolean().describe('A vector of the active model exists for the current content'),
});
export type MemoryView = z.infer<typeof memorySchema>;
export class MemoryDto extends createZodDto(memorySchema) {}

export function toMemoryView(memory: Memory): MemoryView {
  return {
    id: memory.id,
    project: memory.project,
    scope: memory.scope,
    content: memory.content,
    category: memory.category,
    tags: memory.tags,
    keywords: memory.keywords,
    importance: memory.importance,
    confidence: Math.round(memory.confidence * 1000) / 1000,
    source: memory.source,
    stale: memory.stale,
    verifiedAt: memory.verifiedAt?.toISOString() ?? null,
    author: { userId: memory.author.userId, agentId: memory.author.agentId },
    pinned: memory.pinned,
    sensitive: memory.sensitive,
    archived: memory.archivedAt !== null,
    supersededBy: memory.supersededBy,
    version: memory.version,
    accessCount: memory.accessCount,
    lastAccessedAt: memory.lastAccessedAt?.toISOString() ?? null,
    occurredAt: memory.occurredAt.toISOString(),
    createdAt: memory.createdAt.toISOString(),
    updatedAt: memory.updatedAt.toISOString(),
    embedded: memory.embedded,
  };
}

export const warningSchema = z.object({
  memoryId: z.uuid(),
  content: z.string(),
  reason: z.string(),
  strength: z.enum(['weak', 'strong']),
  recorded: z.boolean().describe('A contradicts relation was recorded'),
});

export const writeResultSchema = z.object({
  memory: memorySchema,
  warnings: z.array(warningSchema).describe('Existing memories this one appears to contradict'),
  embedding: z.enum(['queued', 'deferred', 'unchanged']),
  redacted: redactedSchema,
});
export class WriteResultDto extends createZodDto(writeResultSchema) {}

export const relationSchema = z.object({
  id: z.uuid(),
  fromId: z.uuid(),
  toId: z.uuid(),
  type: z.enum(RELATION_TYPES),
  note: z.string().nullable(),
  createdAt: z.iso.datetime(),
});
export class RelationDto extends createZodDto(relationSchema) {}

export const linkSchema = z.strictObject({
  toId: z.uuid(),
  type: z.enum(RELATION_TYPES),
  note: z.string().trim().max(500).optional(),
});
export class LinkDto extends createZodDto(linkSchema) {}

export const verifySchema = z.strictObject({
  contentHash: z.string().regex(/^[A-Za-z0-9:+/=_-]{8,128}$/, 'must be a content hash'),
});
export class VerifyDto extends createZodDto(verifySchema) {}
