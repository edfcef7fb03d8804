import { slugSchema, wellFormed } from '@cairn/common';
import { redactedSchema } from '@cairn/secrets';
import { createZodDto } from 'nestjs-zod';
import { z } from 'zod';
import {
  CODE_FILE_MAX_CHARS,
  CODE_PATH_MAX_CHARS,
  FILES_PER_UPLOAD,
  MANIFEST_PAGE_MAX,
  PATHS_PER_REMOVAL,
} from './code-index.types';

/**
 * A repository-relative POSIX path: no leading slash, no empty, `.` or `..` segment, no
 * backslash or control character. Spelled as a pattern every engine reading the OpenAPI document
 * agrees on (lookaheads, no Unicode classes).
 */
export const CODE_PATH_PATTERN =
  // eslint-disable-next-line no-control-regex -- control characters are what it refuses
  /^(?!\/)(?!.*\/\/)(?!.*\/$)(?!(?:.*\/)?\.{1,2}(?:\/|$))[^\\\u0000-\u001f\u007f]+$/;

export const codePathSchema = z
  .string()
  .max(CODE_PATH_MAX_CHARS, `must be at most ${CODE_PATH_MAX_CHARS} characters`)
  .regex(CODE_PATH_PATTERN, 'must be a relative path such as src/main.ts (no leading /, no . or .. segment)')
  // Text that PostgreSQL can store: a lone surrogate becomes U+FFFD, as the file's own tools would show it.
  .transform(wellFormed)
  .describe('Path relative to the repository root, with / separators');

export const BRANCH_PATTERN = /^[A-Za-z0-9_.@#+/-]{1,200}$/;
export const branchSchema = z
  .string()
  .regex(BRANCH_PATTERN, 'must be 1-200 characters of a branch name (letters, digits and _ . @ # + / -)')
  .describe('The git branch the files are from; every branch has a manifest of its own');
export const commitSchema = z
  .string()
  .regex(/^[0-9a-f]{7,64}$/, 'must be 7-64 lower-case hex digits (a git commit id)')
  .describe('The commit the files were read at');

export const projectParamSchema = z.strictObject({ project: slugSchema });
export class CodeProjectParamDto extends createZodDto(projectParamSchema) {}

export const manifestQuerySchema = z.strictObject({
  branch: branchSchema.default('main'),
  after: codePathSchema.optional().describe('Start after this path (the `next` of the previous page)'),
  limit: z.coerce.number().int().min(1).max(MANIFEST_PAGE_MAX).default(MANIFEST_PAGE_MAX),
});
export class ManifestQueryDto extends createZodDto(manifestQuerySchema) {}

export const manifestSchema = z.object({
  branch: z.string(),
  commit: z.string().nullable().describe('The commit of the last recorded run'),
  indexedAt: z.iso.datetime().nullable().describe('When the last run was recorded'),
  files: z.array(z.object({ path: z.string(), hash: z.string(), size: z.number().int() })),
  next: z.string().nullable().describe('Pass as `after` for the next page; null on the last'),
});
export class ManifestDto extends createZodDto(manifestSchema) {}

export const uploadSchema = z.strictObject({
  branch: branchSchema,
  commit: commitSchema.optional(),
  files: z
    .array(
      z.strictObject({
        path: codePathSchema,
        content: z.string().max(CODE_FILE_MAX_CHARS, `must be at most ${CODE_FILE_MAX_CHARS} characters`),
      }),
    )
    .min(1)
    .max(FILES_PER_UPLOAD, `at most ${FILES_PER_UPLOAD} files per request`),
});
export class UploadDto extends createZodDto(uploadSchema) {}

export const uploadResultSchema = z.object({
  files: z.array(
    z.object({
      path: z.string(),
      hash: z.string().describe('SHA-256 (hex) of the content as sent'),
      language: z.string().nullable().describe('The parser used; null: text chunks only'),
      symbols: z.number().int(),
      chunks: z.number().int(),
      unchanged: z.boolean().describe('This content was already indexed at this path: nothing was rewritten'),
      redacted: redactedSchema,
    }),
  ),
});
export class UploadResultDto extends createZodDto(uploadResultSchema) {}

export const removalSchema = z.strictObject({
  branch: branchSchema,
  paths: z.array(codePathSchema).min(1).max(PATHS_PER_REMOVAL, `at most ${PATHS_PER_REMOVAL} paths per request`),
});
export class RemovalDto extends createZodDto(removalSchema) {}
export const removalResultSchema = z.object({ removed: z.number().int() });
export class RemovalResultDto extends createZodDto(removalResultSchema) {}

const count = z.number().int().min(0).max(10_000_000);
export const runSchema = z.strictObject({
  branch: branchSchema,
  commit: commitSchema.optional(),
  scanned: count.describe('Files the client looked at'),
  uploaded: count,
  removed: count,
  skipped: count.describe('Files left out (ignored, binary, too large, generated)'),
});
export class RunDto extends createZodDto(runSchema) {}
export const runResultSchema = z.object({
  branch: z.string(),
  commit: z.string().nullable(),
  files: z.number().int(),
  symbols: z.number().int(),
  card: z.object({ version: z.number().int() }).describe('The project card, derived again from the index'),
});
export class RunResultDto extends createZodDto(runResultSchema) {}
