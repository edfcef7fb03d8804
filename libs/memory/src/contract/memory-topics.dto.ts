import { createZodDto } from 'nestjs-zod';
import { z } from 'zod';
import { MEMORY_CATEGORIES } from './memory.types';

/**
 * The topic view of a project's memories (issue 25): topics with counts, and a summary per
 * category. Tools take typed JSON; the REST query string coerces the numbers.
 */

/** Characters a topic prefix may hold: what a normalised tag, keyword or hashtag starts with. */
const PREFIX_PATTERN = /^[\p{L}\p{N}][\p{L}\p{N} ._/+-]{0,63}$/u;

/**
 * A prefix as topics are spelled (lower case, Unicode-compatible form); anything else, such as
 * a LIKE wildcard or a control character, is refused rather than quietly matching nothing.
 */
export const topicPrefixSchema = z
  .string()
  .transform((value) => value.normalize('NFKC').toLowerCase().trim())
  .pipe(
    z
      .string()
      .regex(PREFIX_PATTERN, 'must be 1-64 letters, digits, spaces or . _ / + - and start with a letter or digit'),
  )
  .describe('Only topics starting with this (case-insensitive)');

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
export const categoriesQuerySchema = z.strictObject({ perCategory: perCategory(z.coerce.number()) });
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
