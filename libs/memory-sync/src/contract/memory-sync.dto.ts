import { createZodDto } from 'nestjs-zod';
import { z } from 'zod';
import { memorySchema } from '@cairn/memory';
import { EXPORT_SECRETS } from '@cairn/secrets';
import { changeCursorSchema } from './change-cursor';

const booleanFlag = z.enum(['true', 'false']).transform((value) => value === 'true');

export class ChangesQueryDto extends createZodDto(
  z.strictObject({
    since: changeCursorSchema.optional().describe('nextCursor of the previous call; omit to start from the beginning'),
    limit: z.coerce.number().int().min(1).max(1000).default(100),
  }),
) {}

const tombstoneSchema = z.object({
  id: z.uuid(),
  deleted: z.literal(true),
  changedAt: z.iso.datetime().describe('When it was deleted or unshared'),
  reason: z
    .enum(['deleted', 'unshared'])
    .describe('unshared: it still exists but is no longer shared with you; drop your copy either way'),
});

export class ChangesPageDto extends createZodDto(
  z.object({
    items: z.array(z.union([z.object({ memory: memorySchema }), tombstoneSchema])),
    nextCursor: z.string().describe('Pass as `since` on the next call; store it once the items are applied'),
    hasMore: z.boolean().describe('More changes are ready now; when false, poll again later'),
  }),
) {}

export class ExportQueryDto extends createZodDto(
  z.strictObject({
    includeTenantWide: booleanFlag.default(false).describe('Also export tenant-wide memories'),
    secrets: z
      .enum(EXPORT_SECRETS)
      .default('placeholders')
      .describe(
        'ciphertext (admins only, for backups): each line also carries the sealed originals of its placeholders, ' +
          'which an import into the same tenant restores; never the plaintext',
      ),
  }),
) {}

export class ImportQueryDto extends createZodDto(
  z.strictObject({
    onConflict: z
      .enum(['fail', 'skip'])
      .default('fail')
      .describe('An id that exists with different content: fail the import (409) or skip that line'),
  }),
) {}

export class ImportResultDto extends createZodDto(
  z.object({
    imported: z.number().describe('Memories inserted'),
    unchanged: z.array(z.uuid()).describe('Lines skipped because the memory already exists with the same content'),
    conflicts: z
      .array(z.object({ line: z.number(), id: z.uuid() }))
      .describe('Lines skipped under onConflict=skip: the id exists with different content or elsewhere'),
    relations: z.number().describe('Relations restored (existing ones count too)'),
    embedding: z.enum(['queued', 'deferred', 'unchanged']),
    redacted: z
      .array(z.object({ type: z.string(), count: z.number().int() }))
      .describe('Secrets replaced by placeholders'),
  }),
) {}
