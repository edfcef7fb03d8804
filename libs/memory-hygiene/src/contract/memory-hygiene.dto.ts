import { createZodDto } from 'nestjs-zod';
import { z } from 'zod';
import { unitIntervalRealSchema } from '@cairn/common';
import { memorySchema } from '@cairn/memory';

const days = z.number().int().min(1).max(3650);
const includeTenantWide = z
  .boolean()
  .default(false)
  .describe('Also maintain tenant-wide memories (needs a token scoped to every project)');

export class DecayDto extends createZodDto(
  z.strictObject({
    olderThanDays: days.default(30).describe('Decay memories not read or written for this many days'),
    factor: z.number().min(0.5).max(1).default(0.95).describe('confidence = max(floor, confidence × factor)'),
    floor: unitIntervalRealSchema().default(0.1).describe('Decay never takes confidence below this'),
    includeTenantWide,
  }),
) {}

export class DecayResultDto extends createZodDto(
  z.object({ decayed: z.number().describe('Memories whose confidence fell') }),
) {}

export class PruneDto extends createZodDto(
  z.strictObject({
    maxConfidence: unitIntervalRealSchema().default(0.3).describe('Archive memories at or below this confidence'),
    olderThanDays: days.default(90).describe('…that were not read or written for this many days'),
    dryRun: z.boolean().default(false).describe('Only list what would be archived'),
    limit: z
      .number()
      .int()
      .min(1)
      .max(5000)
      .default(1000)
      .describe('At most this many per call, least recently used first'),
    includeTenantWide,
  }),
) {}

export class PruneResultDto extends createZodDto(
  z.object({
    archived: z.array(z.uuid()).describe('Archived ids (restorable); with dryRun, those that would be'),
    dryRun: z.boolean(),
  }),
) {}

/** An opaque position in the walk over a project's memories, as `nextCursor` returned it. */
export const duplicatesCursor = z.string().min(1).max(200).describe('nextCursor of the previous page; live only');

export class DuplicatesQueryDto extends createZodDto(
  z.strictObject({
    threshold: z.coerce.number().min(0.5).max(1).default(0.92).describe('Minimum cosine similarity of vectors'),
    limit: z.coerce.number().int().min(1).max(200).default(50).describe('At most this many pairs per page'),
    cursor: duplicatesCursor.optional(),
    source: z
      .enum(['live', 'scan'])
      .default('live')
      .describe('live: computed now, a page of memories at a time; scan: what the last periodic duplicate scan found'),
  }),
) {}

export class DuplicatesDto extends createZodDto(
  z.object({
    pairs: z.array(
      z.object({
        a: z.uuid(),
        b: z.uuid(),
        similarity: z.number(),
        reason: z.enum(['same_content', 'similar_vector']),
      }),
    ),
    memories: z.array(memorySchema).describe('Every memory named in pairs'),
    nextCursor: z
      .string()
      .nullable()
      .describe('Pass as cursor for the next page; null once every memory was examined (a page may have no pairs)'),
  }),
) {}

export class MergeDto extends createZodDto(
  z.strictObject({
    sourceIds: z.array(z.uuid()).min(1).max(20).describe('Memories merged into this one; they become superseded by it'),
    reason: z.string().trim().min(1).max(500).optional().describe('Kept in the history of every memory involved'),
  }),
) {}

export class MergeResultDto extends createZodDto(
  z.object({
    memory: memorySchema,
    sources: z.array(z.uuid()),
    embedding: z.enum(['queued', 'deferred', 'unchanged']),
  }),
) {}
