import { BadRequestError, displayText, stripControlCharacters, visibleTextSchema } from '@cairn/common';
import { idempotencyKeySchema } from '@cairn/memory';
import { z } from 'zod';
import { EVENT_KINDS } from './working-memory.types';

export const WM_KEY_PATTERN = /^[A-Za-z0-9._:/-]{1,128}$/;
export const WM_VALUE_MAX_CHARS = 4_000;
export const EVENT_SUMMARY_MAX_CHARS = 500;
export const EVENT_DETAILS_MAX_BYTES = 8 * 1024;
export const SUMMARY_MAX_CHARS = 20_000;
export const BRIEFING_BUDGET_MIN = 100;
export const BRIEFING_BUDGET_MAX = 32_000;
const DETAILS_MAX_DEPTH = 16;

export const wmKeySchema = z
  .string()
  .regex(WM_KEY_PATTERN, 'must be 1-128 characters of letters, digits and . _ : / -')
  .describe('Entry name, e.g. "current_task" or "deploy/target"');

/** Free text kept as written: control characters removed (newlines and tabs kept), trimmed. */
const text = (max: number) =>
  // The input limit is the output limit, so the documented maxLength is the one enforced.
  visibleTextSchema(max)
    .transform((value) => stripControlCharacters(value.normalize('NFC')).trim())
    .pipe(z.string().min(1, 'must not be empty').max(max, `must be at most ${max} characters`));

export const wmValueSchema = text(WM_VALUE_MAX_CHARS);
export const importanceSchema = z
  .number()
  .int()
  .min(1)
  .max(5)
  .describe('1-2 ephemeral (evicted first), 3 normal, 4-5 critical');

export const rememberSchema = z.strictObject({
  key: wmKeySchema,
  value: wmValueSchema,
  importance: importanceSchema.default(3),
});
export type RememberInput = z.input<typeof rememberSchema>;

/**
 * Event details: a JSON object of at most 8 KB once serialised and 16 levels deep, with
 * control characters removed from every string (PostgreSQL's jsonb refuses NUL).
 */
export const eventDetailsSchema = z.record(z.string(), z.unknown()).transform((value, ctx) => {
  const clean = cleanJson(value, 0);
  if (clean === undefined) {
    ctx.addIssue({ code: 'custom', message: `must be at most ${DETAILS_MAX_DEPTH} levels deep` });
    return z.NEVER;
  }
  if (Buffer.byteLength(JSON.stringify(clean)) > EVENT_DETAILS_MAX_BYTES) {
    ctx.addIssue({ code: 'custom', message: `must be at most ${EVENT_DETAILS_MAX_BYTES} bytes as JSON` });
    return z.NEVER;
  }
  return clean as Record<string, unknown>;
});

export const recordEventSchema = z.strictObject({
  kind: z.enum(EVENT_KINDS),
  summary: displayText(EVENT_SUMMARY_MAX_CHARS).describe('One line: what happened'),
  details: eventDetailsSchema.optional().describe('Structured extras (file path, error code…), ≤ 8 KB'),
  idempotencyKey: idempotencyKeySchema.optional().describe('Retries with it record once'),
});
export type RecordEventInput = z.input<typeof recordEventSchema>;

export const summarizeSchema = z.strictObject({
  text: text(SUMMARY_MAX_CHARS).describe('What this session did, decided and left open'),
  idempotencyKey: idempotencyKeySchema
    .optional()
    .describe('Retries with it archive once: the summary is kept under a source named by the key'),
});
export type SummarizeInput = z.input<typeof summarizeSchema>;

export const contextOptionsSchema = z.strictObject({
  timezone: z
    .string()
    .max(64)
    .refine(isTimeZone, 'must be an IANA time zone such as "Europe/Berlin" or "UTC"')
    .optional()
    .describe('IANA time zone for the local time in the time anchor (default UTC)'),
  budgetTokens: z
    .number()
    .int()
    .min(BRIEFING_BUDGET_MIN)
    .max(BRIEFING_BUDGET_MAX)
    .optional()
    .describe('Upper bound for the briefing, in estimated tokens (default BRIEFING_TOKEN_BUDGET)'),
});
export type ContextOptions = z.input<typeof contextOptionsSchema>;

/** An IANA time zone name. */
export function isTimeZone(value: string): boolean {
  // Node 22+ (ICU) also takes UTC offsets such as "+09:00": not IANA names, refused as on Node 20.
  if (/^[+\-\u2212]/.test(value)) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: value });
    return true;
  } catch {
    return false;
  }
}

/**
 * Services validate again what REST DTOs already checked: MCP tools and other callers reach
 * them without going through the HTTP pipe.
 */
export function parseInput<T extends z.ZodType>(schema: T, input: unknown): z.output<T> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const details = result.error.issues.slice(0, 20).map((issue) => ({
    path: issue.path.map(String).join('.'),
    message: issue.message,
  }));
  const first = details[0];
  const where = first?.path ? `${first.path}: ` : '';
  throw new BadRequestError(
    `Invalid request: ${where}${first?.message ?? 'invalid input'}`,
    details,
    'validation_failed',
  );
}

/** A copy with control characters stripped from keys and strings; undefined when nested too deep. */
function cleanJson(value: unknown, depth: number): unknown {
  if (typeof value === 'string') return stripControlCharacters(value);
  if (value === null || typeof value !== 'object') return value;
  if (depth >= DETAILS_MAX_DEPTH) return undefined;
  if (Array.isArray(value)) {
    const items = value.map((item) => cleanJson(item, depth + 1));
    return items.includes(undefined) ? undefined : items;
  }
  const entries: [string, unknown][] = [];
  for (const [key, item] of Object.entries(value)) {
    const clean = cleanJson(item, depth + 1);
    if (clean === undefined && item !== undefined) return undefined;
    entries.push([stripControlCharacters(key), clean]);
  }
  return Object.fromEntries(entries);
}
