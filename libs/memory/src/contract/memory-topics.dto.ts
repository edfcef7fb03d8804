import { createZodDto } from 'nestjs-zod';
import { z } from 'zod';
import { queryNumberSchema, stripControlCharacters } from '@cairn/common';
import { MEMORY_CATEGORIES } from './memory.types';

/**
 * The topic view of a project's memories (issue 25): topics with counts, and a summary per
 * category. Tools take typed JSON; the REST query string coerces the numbers.
 */

/**
 * A prefix as topics are spelled (Unicode-compatible form, lower case, trimmed, no control
 * characters). It is a filter, nothing more: a blank prefix filters nothing, and a prefix no
 * topic starts with lists none (it is compared with left(), never with LIKE, so no character is
 * special).
 */
export const topicPrefixSchema = z
  .string()
  .max(64, 'must be at most 64 characters')
  .transform((value) => stripControlCharacters(value.normalize('NFKC')).toLowerCase().trim() || undefined)
  .describe('Only topics starting with this (case-insensitive); blank lists all');

export const TOPIC_LIMIT_MAX = 100;
export const PER_CATEGORY_MAX = 5;
const topicLimit = (n: z.ZodNumber) =>
  n.int().min(1).max(TOPIC_LIMIT_MAX, `must be at most ${TOPIC_LIMIT_MAX}`).default(30).describe('1-100, default 30');
const perCategory = (n: z.ZodNumber) =>
  n
    .int()
    .min(0)
    .max(PER_CATEGORY_MAX, `must be at most ${PER_CATEGORY_MAX}`)
    .default(3)
    .describe('Newest per category, 0-5');

export const topicsInputSchema = z.strictObject({
  prefix: topicPrefixSchema.optional(),
  limit: topicLimit(z.number()),
});
export const topicsQuerySchema = z.strictObject({
  prefix: topicPrefixSchema.optional(),
  limit: topicLimit(z.coerce.number()),
});
export class TopicsQueryDto extends createZodDto(topicsQuerySchema) {}

export const categoriesInputSchema = z.strictObject({ perCategory: perCategory(z.number()) });
export const categoriesQuerySchema = z.strictObject({ perCategory: queryNumberSchema(perCategory(z.coerce.number())) });
export class CategoriesQueryDto extends createZodDto(categoriesQuerySchema) {}

const count = z.number().int().min(0);

export const topicsResultSchema = z.object({
  memories: count.describe('Live memories the caller may see here (the project and team ones)'),
  topics: z.array(
    z.object({
      topic: z.string(),
      memories: count.describe('Memories with this topic from any source'),
      sources: z.object({ tag: count, hashtag: count, keyword: count }).describe('Memories per source'),
    }),
  ),
  hashtagScan: z
    .object({ scanned: count, complete: z.boolean() })
    .describe('Hashtags are read from the newest memories containing "#"; complete: every such memory was read'),
});
export class TopicsResultDto extends createZodDto(topicsResultSchema) {}
export type TopicsResult = z.infer<typeof topicsResultSchema>;

export const categoriesResultSchema = z.object({
  memories: count.describe('Live memories the caller may see here (the project and team ones)'),
  categories: z.array(
    z.object({
      category: z.enum(MEMORY_CATEGORIES),
      memories: count,
      newestAt: z.iso.datetime(),
      newest: z.array(z.object({ id: z.uuid(), snippet: z.string(), createdAt: z.iso.datetime() })),
    }),
  ),
});
export class CategoriesResultDto extends createZodDto(categoriesResultSchema) {}
export type CategoriesResult = z.infer<typeof categoriesResultSchema>;
