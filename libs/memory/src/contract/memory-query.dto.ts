import { agentIdSchema, pastInstantSchema, slugSchema } from '@cairn/common';
import {
  minRelevanceSchema,
  relevanceExplainSchema,
  relevanceReportSchema,
  rerankExplainSchema,
  rerankReportSchema,
  SEARCH_MODES,
  searchQuerySchema,
} from '@cairn/search';
import { referenceTimeOf } from '@cairn/temporal';
import { createZodDto } from 'nestjs-zod';
import { z } from 'zod';
import { type ListFilter } from './memory-filter';
import { categorySchema, tagSchema } from './memory-fields.schema';
import { MEMORY_CATEGORIES } from './memory.types';
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
  scope: z
    .enum(['project', 'tenant', 'all'])
    .optional()
    .describe(
      "Not a memory's scope: project = memories of this project (team ones that started here too), " +
        'tenant = team memories (every project, and tenant-wide), all (default) = both. Private memories show ' +
        'only to their author and those they are shared with, under any of them',
    ),
  authorAgentId: agentIdSchema.optional(),
  authorUserId: z.uuid().optional(),
  createdAfter: z.iso.datetime({ offset: true }).optional(),
  createdBefore: z.iso.datetime({ offset: true }).optional(),
};

export const listMemoriesQuerySchema = z.strictObject({
  ...filterFields,
  category: csv(categorySchema, 9)
    .optional()
    .describe('Comma-separated categories')
    // The accepted lists, stated in the document (a bare string would promise any text works).
    .meta({ pattern: `^( *(${MEMORY_CATEGORIES.join('|')}) *(, *(${MEMORY_CATEGORIES.join('|')}) *){0,8})?$` }),
  tags: csv(tagSchema, 32).optional().describe('Comma-separated; any of them'),
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
  tags: z.array(tagSchema).max(32).optional(),
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
  minRelevance: minRelevanceSchema.optional(),
  filters: searchFiltersSchema.default({}),
  asOf: pastInstantSchema
    .transform(referenceTimeOf)
    .optional()
    .describe('Reference time for dates in the query ("last Saturday" of when); default now. Its offset sets the day'),
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
  temporal: z
    .object({
      occurredAt: z.iso.datetime(),
      closeness: z.number().describe("1 inside the question's date range, less the further outside"),
      added: z.number().describe('What the date added to the fused score'),
      order: z.number().describe('Multiplier from an ordering cue ("first time", "latest"); 1 if none'),
    })
    .optional()
    .describe('With dates in the query: what they did to this result'),
  final: z.number(),
  rerank: rerankExplainSchema.optional().describe('With a reranker configured: its score and the positions it moved'),
  relevance: relevanceExplainSchema.optional().describe('The absolute signals the calibrated relevance is made of'),
});

export const temporalReportSchema = z.object({
  reference: z.iso.datetime().describe('What the dates were read against: asOf, or now'),
  rankedQuery: z.string().describe('The query the rankers got; empty when it names only dates'),
  range: z
    .object({
      expression: z.string(),
      kind: z.enum(['date', 'relative', 'recent', 'anchored']),
      from: z.iso.datetime().nullable(),
      to: z.iso.datetime().nullable().describe('Exclusive'),
      applied: z
        .enum(['filter', 'boost', 'none'])
        .describe('filter: only memories that occurred in it; boost: nearer ones gain, none dropped'),
      weight: z.number(),
    })
    .optional(),
  order: z.object({ expression: z.string(), direction: z.enum(['earliest', 'latest']) }).optional(),
  notes: z.array(z.string()),
});
export type TemporalReport = z.infer<typeof temporalReportSchema>;

export const searchReportSchema = z.object({
  requestedMode: z.enum(SEARCH_MODES),
  mode: z.enum(SEARCH_MODES),
  notes: z.array(z.string()),
  embeddingModel: z.string().nullable(),
  temporal: temporalReportSchema.optional().describe('Dates found in the query and how they were applied'),
  rerank: rerankReportSchema.optional().describe('With a reranker configured: its model and whether its order applied'),
  relevance: relevanceReportSchema
    .optional()
    .describe('Which relevance threshold applied and how many results it left out; absent for a query of dates only'),
});

export const recallResultSchema = z.object({
  results: z.array(
    z.object({
      memory: memorySchema,
      score: z.number().describe('The fused ranking score: orders this list, means nothing across queries'),
      relevance: z
        .number()
        .min(0)
        .max(1)
        .optional()
        .describe('Calibrated relevance 0-1, comparable across queries (absent for a query of dates only)'),
      explain: explanationSchema.optional(),
    }),
  ),
  report: searchReportSchema,
});
export class RecallResultDto extends createZodDto(recallResultSchema) {}
