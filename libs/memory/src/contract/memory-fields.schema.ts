import {
  pastInstantSchema,
  slugSchema,
  stripControlCharacters,
  unitIntervalRealSchema,
  visibleTextSchema,
  withConfiguredMaxLength,
} from '@cairn/common';
import { z } from 'zod';
import { MEMORY_CATEGORIES } from './memory.types';

/**
 * Memory text: control characters removed (newlines and tabs kept), trimmed. Validated up to the
 * largest MEMORY_CONTENT_MAX_CHARS allows; the schemas clients read state the configured limit,
 * which MemoryWriter enforces.
 */
export const memoryContentSchema = withConfiguredMaxLength(
  visibleTextSchema(100_000)
    .transform((value) => stripControlCharacters(value.normalize('NFC')).trim())
    .pipe(z.string().min(1, 'must not be empty')),
  'memoryContentMaxChars',
);

const label = visibleTextSchema(64)
  .transform((value) => stripControlCharacters(value.normalize('NFKC')).trim())
  .pipe(z.string().min(1).max(64, 'must be at most 64 characters'));

/**
 * One tag as tags are stored (cleaned like any label, lower-cased): what tag filters compare
 * against. Raw filter strings reached PostgreSQL, which refuses NUL bytes with a 500.
 */
export const tagSchema = label.transform((tag) => tag.toLowerCase());

export const tagsSchema = z
  .array(label)
  .max(32, 'at most 32 tags')
  .transform((tags) => [...new Set(tags.map((tag) => tag.toLowerCase()))])
  .describe('Short labels for filtering, e.g. ["deploy", "ci"]');

export const keywordsSchema = z
  .array(label)
  .max(50, 'at most 50 keywords')
  .transform((keywords) => [...new Map(keywords.map((k) => [k.toLowerCase(), k])).values()])
  .describe('Search-expansion terms: synonyms and related words a future question might use');

export const sourceSchema = z
  .strictObject({
    // Control characters (NUL included, which PostgreSQL text cannot hold) have no place in a path.
    path: visibleTextSchema(1024)
      .transform((value) => stripControlCharacters(value).trim())
      .describe('File path the fact comes from, relative to the repository root'),
    line: z.number().int().min(1).max(10_000_000).optional(),
    contentHash: z
      .string()
      .regex(/^[A-Za-z0-9:+/=_-]{8,128}$/, 'must be a content hash (8-128 characters of [A-Za-z0-9:+/=_-])')
      .optional()
      .describe("Hash of the file's content when the fact was written; verify compares against it"),
  })
  .nullable();

export const occurredAtSchema = pastInstantSchema
  .transform((value) => new Date(value))
  .describe(
    'When the fact happened or was said (default: when it is stored). Dated questions ("last Saturday") use it',
  );

export const categorySchema = z.enum(MEMORY_CATEGORIES);
export const importanceSchema = z.number().int().min(1).max(5);
/** Stored in a `real` column: subnormal values round to 0 (see unitIntervalRealSchema). */
export const confidenceSchema = unitIntervalRealSchema();
export const projectParamSchema = z.strictObject({ project: slugSchema });
export const memoryParamsSchema = z.strictObject({ project: slugSchema, id: z.uuid('must be a memory id') });
