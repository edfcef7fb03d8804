import { slugSchema } from '@cairn/common';
import { createZodDto } from 'nestjs-zod';
import { z } from 'zod';
import { type RevealedSecret } from './secret-redaction.types';

/** One type of secret a write replaced by placeholders, and how many. */
export const secretCountSchema = z.object({ type: z.string(), count: z.number().int() });
/** What a write result says it redacted: one entry per type; empty when nothing was. */
export const redactedSchema = z.array(secretCountSchema);

/** What a write redacted, as one line of a tool's text for the agent (none when nothing was). */
export function redactedLine(redacted: readonly { type: string; count: number }[]): string[] {
  if (redacted.length === 0) return [];
  return [`Secrets replaced by placeholders: ${redacted.map(({ type, count }) => `${type} ×${count}`).join(', ')}.`];
}

/** A placeholder's id, as `[SECRET:<type>:<id>]` shows it. */
export const secretIdSchema = z
  .string()
  .regex(/^[A-Za-z0-9_-]{1,64}$/, 'must be the id of a [SECRET:type:id] placeholder');

export const secretParamsSchema = z.strictObject({ project: slugSchema, id: secretIdSchema });
export class SecretParamsDto extends createZodDto(secretParamsSchema) {}

export const secretSchema = z.object({
  id: z.string(),
  type: z.string(),
  value: z.string(),
  sourceTable: z.string(),
  sourceId: z.string(),
  createdAt: z.iso.datetime(),
});
export class SecretDto extends createZodDto(secretSchema) {}

export function toSecretView(secret: RevealedSecret): z.output<typeof secretSchema> {
  return { ...secret, createdAt: secret.createdAt.toISOString() };
}
