import { redactedSchema } from '@cairn/secrets';
import { createZodDto } from 'nestjs-zod';
import { z } from 'zod';
import { recordEventSchema, summarizeSchema } from './working-memory.fields';
import { EVENT_KINDS, EVENTS_MAX_LIMIT, type RecordedEvent, type SessionEvent } from './working-memory.types';
import { entrySchema, evictedSchema } from './working-memory.dto';

export class RecordSessionEventDto extends createZodDto(recordEventSchema) {}

export class SessionEventsQueryDto extends createZodDto(
  z.strictObject({
    limit: z.coerce.number().int().min(1).max(EVENTS_MAX_LIMIT).default(50),
    since: z.iso.datetime({ offset: true }).optional().describe('Only events recorded after this instant'),
    kind: z.enum(EVENT_KINDS).optional(),
    cursor: z
      .uuid('must be a cursor returned by a previous page')
      .optional()
      .describe('The nextCursor of the previous page: only events older than it'),
  }),
) {}

const eventSchema = z.object({
  id: z.uuid(),
  kind: z.enum(EVENT_KINDS),
  summary: z.string(),
  details: z.record(z.string(), z.unknown()).nullable(),
  agent: z.string().describe('Agent key of the recorder: agent:<agentId>, user:<userId> or token:<tokenId>'),
  createdAt: z.iso.datetime(),
});
export class SessionEventDto extends createZodDto(eventSchema) {}
/** Recording an event answers it as stored and what was redacted in it (listing events does not). */
export const recordedEventSchema = eventSchema.extend({ redacted: redactedSchema });
export class RecordedSessionEventDto extends createZodDto(recordedEventSchema) {}
export class SessionEventListDto extends createZodDto(
  z.object({
    items: z.array(eventSchema).describe('Newest first, every agent of the project'),
    nextCursor: z.string().nullable().describe('Pass as `cursor` for older events; null at the oldest'),
  }),
) {}

export function toEventView(event: SessionEvent): z.infer<typeof eventSchema> {
  const { id, kind, summary, details, agent, createdAt } = event;
  return { id, kind, summary, details, agent, createdAt: createdAt.toISOString() };
}

export function toRecordedEventView(event: RecordedEvent): z.infer<typeof recordedEventSchema> {
  return { ...toEventView(event), redacted: [...event.redacted] };
}

export class SummarizeSessionDto extends createZodDto(summarizeSchema) {}

export class SessionSummaryResultDto extends createZodDto(
  z.object({
    document: z
      .object({ id: z.uuid(), source: z.string(), expiresAt: z.iso.datetime() })
      .describe('The knowledge-base document archiving the summary (retention tier "summary")'),
    entry: entrySchema.describe('The last_session_summary working-memory entry'),
    evicted: evictedSchema,
    redacted: redactedSchema,
  }),
) {}
