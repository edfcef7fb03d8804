import { slugSchema } from '@cairn/common';
import { redactedSchema } from '@cairn/secrets';
import { createZodDto } from 'nestjs-zod';
import { z } from 'zod';
import { importanceSchema, wmKeySchema, wmValueSchema } from './working-memory.fields';
import { type EvictedEntry, type WorkingMemoryEntry } from './working-memory.types';

export const projectParamSchema = z.strictObject({ project: slugSchema });
export class ProjectParamDto extends createZodDto(projectParamSchema) {}

export class WorkingMemoryKeyParamsDto extends createZodDto(
  z.strictObject({ project: slugSchema, key: wmKeySchema }),
) {}

export class RememberDto extends createZodDto(
  z.strictObject({
    value: wmValueSchema.describe('What to keep in mind, at most 4,000 characters'),
    importance: importanceSchema.default(3),
  }),
) {}

export const entrySchema = z.object({
  key: z.string(),
  value: z.string(),
  importance: z.number().int(),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
});

export const evictedSchema = z
  .array(z.object({ key: z.string(), memoryId: z.uuid() }))
  .describe('Entries moved into long-term memory to stay within the cap, with the memory now holding each');

export class RememberResultDto extends createZodDto(
  z.object({ entry: entrySchema, evicted: evictedSchema, redacted: redactedSchema }),
) {}

export class WorkingMemoryListDto extends createZodDto(
  z.object({
    items: z.array(entrySchema).describe('Most important first, then most recently written'),
    cap: z.number().int().describe('Entries kept before the least important move to long-term memory'),
  }),
) {}

export function toEntryView(entry: WorkingMemoryEntry): z.infer<typeof entrySchema> {
  return {
    key: entry.key,
    value: entry.value,
    importance: entry.importance,
    createdAt: entry.createdAt.toISOString(),
    updatedAt: entry.updatedAt.toISOString(),
  };
}

export const toEvictedView = (evicted: readonly EvictedEntry[]) =>
  evicted.map((item) => ({ key: item.key, memoryId: item.memoryId }));
