import { pastInstantSchema, slugSchema, stripControlCharacters, visibleTextSchema } from '@cairn/common';
import { createZodDto } from 'nestjs-zod';
import { z } from 'zod';
import {
  GENERATION_KINDS,
  GENERATION_STATUSES,
  type GenerationRequestRow,
  TRANSCRIPT_MAX_CHARS,
} from './generation-request.types';

export const projectParamSchema = z.strictObject({ project: slugSchema });
export class ProjectParamDto extends createZodDto(projectParamSchema) {}

export const requestParamsSchema = z.strictObject({ project: slugSchema, id: z.uuid('must be a request id') });
export class RequestParamsDto extends createZodDto(requestParamsSchema) {}

/** Transcripts: control characters removed (newlines and tabs kept), at least some text. */
export const transcriptSchema = z.strictObject({
  transcript: visibleTextSchema(TRANSCRIPT_MAX_CHARS)
    .transform((value) => stripControlCharacters(value).trim())
    .pipe(z.string().min(1, 'must not be empty'))
    .describe('The session transcript or notes, as plain text'),
});
export class TranscriptDto extends createZodDto(transcriptSchema) {}

/** A transcript to extract facts from, and when the conversation took place (the facts' `occurredAt`). */
export const extractionInputSchema = transcriptSchema.extend({
  occurredAt: pastInstantSchema
    .optional()
    .describe('When the conversation took place, so when its facts occurred (default: now)'),
});
export class ExtractionInputDto extends createZodDto(extractionInputSchema) {}

export const requestAcceptedSchema = z.object({
  requestId: z.uuid().describe('Poll GET /v1/projects/{project}/requests/{requestId} for the result'),
  status: z.enum(GENERATION_STATUSES),
  reused: z.boolean().describe('The same text was sent by this caller within a day: that request is returned'),
});
export class RequestAcceptedDto extends createZodDto(requestAcceptedSchema) {}

export const generationRequestSchema = z.object({
  id: z.uuid(),
  kind: z.enum(GENERATION_KINDS),
  status: z.enum(GENERATION_STATUSES),
  result: z
    .record(z.string(), z.unknown())
    .nullable()
    .describe(
      'session_summary: {summary, documentId, evicted}; fact_extraction: {mode, source, candidates, proposalIds, memoryIds}',
    ),
  generatedBy: z.string().nullable(),
  flaggedInjection: z.boolean(),
  error: z.string().nullable(),
  requestedBy: z.object({ userId: z.string().nullable(), agentId: z.string().nullable() }),
  createdAt: z.iso.datetime(),
  completedAt: z.iso.datetime().nullable(),
});
export class GenerationRequestDto extends createZodDto(generationRequestSchema) {}

export function toRequestView(row: GenerationRequestRow): z.infer<typeof generationRequestSchema> {
  return {
    id: row.id,
    kind: row.kind,
    status: row.status,
    result: row.result,
    generatedBy: row.generatedBy,
    flaggedInjection: row.flaggedInjection,
    error: row.error,
    requestedBy: { userId: row.requestedBy.userId, agentId: row.requestedBy.agentId },
    createdAt: new Date(row.createdAt).toISOString(),
    completedAt: row.completedAt === null ? null : new Date(row.completedAt).toISOString(),
  };
}
