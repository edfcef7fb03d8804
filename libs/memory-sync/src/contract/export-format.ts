import { agentIdSchema, pastInstantSchema } from '@cairn/common';
import { type BackedUpSecret, backedUpSecretSchema } from '@cairn/secrets';
import { z } from 'zod';
import {
  categorySchema,
  confidenceSchema,
  importanceSchema,
  keywordsSchema,
  type Memory,
  memoryContentSchema,
  RELATION_TYPES,
  tagsSchema,
} from '@cairn/memory';

/**
 * The JSON Lines export format, version 1. Line 1 is a header:
 *   {"format":"cairn.memories","version":1,"project":"<slug>","exportedAt":"<ISO 8601>"}
 * then one line per live (not deleted) memory, oldest first, with its state and its outgoing
 * relations to other memories of the same export. Lines carry no project: a file imports into
 * any project, and exporting the imported project again gives the same lines. Not carried:
 * version history, vectors (re-made after import) and the token that wrote a memory.
 * Timestamps keep millisecond precision. `occurredAt` (when the fact happened) is optional on
 * import, for files written before it existed: it then defaults to `createdAt`. `supersededBy` is written as stored, so it may name a
 * memory outside the file (tenant-wide, or deleted since); an import resolves it against the
 * file and the target project, and refuses the line (400, with its number) when it cannot.
 * `scope` is the memory's scope (private, project, team), or `tenant` for a team memory without
 * a project (files from before scopes have only project and tenant). An admin's export holds
 * every scope (a backup); anyone else's only what they see, private memories of others left out.
 * Two keys appear only when they apply: `sensitive: true` (the content is the placeholder of a
 * sealed original, see memory_store), and `secrets`, in an admin's export with
 * `secrets=ciphertext`: the sealed originals of the line's placeholders (envelope and data-key
 * version, never a value), which an import into the same tenant keeps again.
 */
export const EXPORT_FORMAT = 'cairn.memories';
export const EXPORT_VERSION = 1;
export const NDJSON = 'application/x-ndjson';

const timestamp = z.iso.datetime({ offset: true });
const SENSITIVE_CONTENT = /^\[SECRET:sensitive:[A-Za-z0-9_-]{1,64}\]$/;
const count = z.number().int().min(0).max(2_147_483_647);

export const exportHeaderSchema = z.strictObject({
  format: z.literal(EXPORT_FORMAT, `must be "${EXPORT_FORMAT}"`),
  version: z.literal(EXPORT_VERSION, `only version ${EXPORT_VERSION} is supported`),
  project: z.string().max(100),
  exportedAt: timestamp,
});

export const exportedRelationSchema = z.strictObject({
  toId: z.uuid(),
  type: z.enum(RELATION_TYPES),
  note: z.string().max(500).nullable(),
});
export type ExportedRelation = z.infer<typeof exportedRelationSchema>;

export const exportedMemorySchema = z
  .strictObject({
    id: z.uuid(),
    scope: z
      .enum(['private', 'project', 'team', 'tenant'])
      .describe('The memory scope; tenant: a team memory without a project (tenant-wide)'),
    content: memoryContentSchema,
    category: categorySchema,
    tags: tagsSchema,
    keywords: keywordsSchema,
    importance: importanceSchema,
    confidence: confidenceSchema,
    source: z
      .strictObject({
        path: z.string().min(1).max(1024),
        line: z.number().int().min(1).max(10_000_000).nullable(),
        contentHash: z
          .string()
          .regex(/^[A-Za-z0-9:+/=_-]{8,128}$/, 'must be a content hash')
          .nullable(),
      })
      .nullable(),
    pinned: z.boolean(),
    stale: z.boolean(),
    verifiedAt: timestamp.nullable(),
    archived: z.boolean(),
    archivedAt: timestamp.nullable(),
    supersededBy: z.uuid().nullable(),
    version: count.min(1),
    accessCount: count,
    lastAccessedAt: timestamp.nullable(),
    occurredAt: pastInstantSchema.optional(),
    createdAt: timestamp,
    updatedAt: timestamp,
    author: z.strictObject({ userId: z.uuid().nullable(), agentId: agentIdSchema.nullable() }),
    relations: z.array(exportedRelationSchema).max(1000),
    sensitive: z.boolean().optional(),
    secrets: z.array(backedUpSecretSchema).max(1000).optional(),
  })
  .refine((line) => line.archived === (line.archivedAt !== null), {
    message: 'archived must be true exactly when archivedAt is set',
    path: ['archived'],
  })
  .refine((line) => line.supersededBy !== line.id, {
    message: 'a memory cannot supersede itself',
    path: ['supersededBy'],
  })
  .refine((line) => line.relations.every((relation) => relation.toId !== line.id), {
    message: 'a memory cannot be related to itself',
    path: ['relations'],
  })
  .refine((line) => !line.sensitive || SENSITIVE_CONTENT.test(line.content), {
    message: "a sensitive memory's content is its placeholder [SECRET:sensitive:<id>]",
    path: ['content'],
  })
  .refine(
    (line) => {
      const text = [line.content, ...line.tags, ...line.keywords].join('\n');
      return (line.secrets ?? []).every((secret) => text.includes(`[SECRET:${secret.type}:${secret.id}]`));
    },
    { message: "each of secrets must be the original of a placeholder in the line's text", path: ['secrets'] },
  );
export type ExportedMemory = z.infer<typeof exportedMemorySchema>;

export function exportHeaderLine(project: string, exportedAt: Date): string {
  return JSON.stringify({
    format: EXPORT_FORMAT,
    version: EXPORT_VERSION,
    project,
    exportedAt: exportedAt.toISOString(),
  });
}

/** One memory as a line. Keys in a fixed order, so equal memories give byte-identical lines. */
export function exportLine(
  memory: Memory,
  relations: readonly ExportedRelation[],
  secrets?: readonly BackedUpSecret[],
): string {
  const line: Record<Exclude<keyof ExportedMemory, 'sensitive' | 'secrets'>, unknown> = {
    id: memory.id,
    scope: memory.projectId === null ? 'tenant' : memory.scope,
    content: memory.content,
    category: memory.category,
    tags: memory.tags,
    keywords: memory.keywords,
    importance: memory.importance,
    confidence: memory.confidence,
    source: memory.source && {
      path: memory.source.path,
      line: memory.source.line,
      contentHash: memory.source.contentHash,
    },
    pinned: memory.pinned,
    stale: memory.stale,
    verifiedAt: memory.verifiedAt?.toISOString() ?? null,
    archived: memory.archivedAt !== null,
    archivedAt: memory.archivedAt?.toISOString() ?? null,
    supersededBy: memory.supersededBy,
    version: memory.version,
    accessCount: memory.accessCount,
    lastAccessedAt: memory.lastAccessedAt?.toISOString() ?? null,
    occurredAt: memory.occurredAt.toISOString(),
    createdAt: memory.createdAt.toISOString(),
    updatedAt: memory.updatedAt.toISOString(),
    author: { userId: memory.author.userId, agentId: memory.author.agentId },
    relations: relations.map((relation) => ({ toId: relation.toId, type: relation.type, note: relation.note })),
  };
  return JSON.stringify({
    ...line,
    ...(memory.sensitive && { sensitive: true }),
    ...(secrets && secrets.length > 0 && { secrets }),
  });
}
