import { agentIdSchema, slugSchema } from '@cairn/common';
import { SEARCH_MODES, searchQuerySchema } from '@cairn/search';
import { createZodDto } from 'nestjs-zod';
import { z } from 'zod';
import { type ListFilter } from './memory-filter';
import { categorySchema } from './memory-fields.schema';
import { memorySchema } from './memory.dto';

const csv = <T extends z.ZodType<unknown, string>>(item: T, max: number) =>
  z
    .string()
    .transform((value) =>
      value
        .split(',')
        .map((part) => part.trim())
        .filter(Boolean),
    )
    .pipe(z.array(item).max(max));
const booleanFlag = z.enum(['true', 'false']).transform((value) => value === 'true');

/** Filters shared by list (query string) and search (JSON body). */
const filterFields = {
  scope: z.enum(['project', 'tenant', 'all']).optional().describe('project, tenant-wide, or both (default)'),
  authorAgentId: agentIdSchema.optional(),
  authorUserId: z.uuid().optional(),
  createdAfter: z.iso.datetime({ offset: true }).optional(),
  createdBefore: z.iso.datetime({ offset: true }).optional(),
};

export const listMemoriesQuerySchema = z.strictObject({
  ...filterFields,
  category: csv(categorySchema, 9).optional().describe('Comma-separated categories'),
  tags: csv(z.string().min(1).max(64), 32).optional().describe('Comma-separated; any of them'),
  stale: booleanFlag.optional(),
  pinned: booleanFlag.optional(),
  includeArchived: booleanFlag.optional(),
  includeSuperseded: booleanFlag.optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
  cursor: z.uuid('must be a cursor returned by a previous page').optional(),
});
export class ListMemoriesQueryDto extends createZodDto(listMemoriesQuerySchema) {}

export const searchFiltersSchema = z.strictObject({
  ...filterFields,
  categories: z.array(categorySchema).max(9).optional(),
  tags: z.array(z.string().min(1).max(64)).max(32).optional(),
  stale: z.boolean().optional().describe('true: only stale; false: hide stale; absent: include, flagged'),
  pinned: z.boolean().optional(),
  includeArchived: z.boolean().optional(),
  includeSuperseded: z.boolean().optional(),
});

export const recallSchema = z.strictObject({
  query: searchQuerySchema.describe('A natural-language question or keywords'),
  mode: z.enum(SEARCH_MODES).default('hybrid'),
  limit: z.number().int().min(1).max(50).default(10),
  explain: z.boolean().default(false).describe("Return each signal's rank and score per result"),
  filters: searchFiltersSchema.default({}),
});
export class RecallDto extends createZodDto(recallSchema) {}

export const recallAcrossSchema = recallSchema.extend({
  projects: z.array(slugSchema).min(1).max(100).optional().describe('Narrow to these projects (default: all readable)'),
});
export class RecallAcrossDto extends createZodDto(recallAcrossSchema) {}

type FilterInput = z.infer<typeof searchFiltersSchema> | z.infer<typeof listMemoriesQuerySchema>;

export function toListFilter(input: FilterInput): ListFilter {
  const categories = 'categories' in input ? input.categories : 'category' in input ? input.category : undefined;
  return {
    scope: input.scope,
    categories,
    tags: input.tags,
    authorAgentId: input.authorAgentId,
    authorUserId: input.authorUserId,
    createdAfter: input.createdAfter ? new Date(input.createdAfter) : undefined,
    createdBefore: input.createdBefore ? new Date(input.createdBefore) : undefined,
    stale: input.stale,
    pinned: input.pinned,
    includeArchived: input.includeArchived,
    includeSuperseded: input.includeSuperseded,
  };
}

export const memoryPageSchema = z.object({ items: z.array(memorySchema), nextCursor: z.string().nullable() });
export class MemoryPageDto extends createZodDto(memoryPageSchema) {}

const signalSchema = z.object({ rank: z.number(), score: z.number(), relative: z.number(), contribution: z.number() });
export const explanationSchema = z.object({
  keyword: signalSchema.optional(),
  semantic: signalSchema.optional(),
  fused: z.number(),
  boosts: z.object({ importance: z.number(), recency: z.number(), confidence: z.number(), pinned: z.number() }),
  final: z.number(),
});

export const searchReportSchema = z.object({
  requestedMode: z.enum(SEARCH_MODES),
  mode: z.enum(SEARCH_MODES),
  notes: z.array(z.string()),
  embeddingModel: z.string().nullable(),
});

export const recallResultSchema = z.object({
  results: z.array(z.object({ memory: memorySchema, score: z.number(), explain: explanationSchema.optional() })),
  report: searchReportSchema,
});
export class RecallResultDto extends createZodDto(recallResultSchema) {}
