import { createZodDto } from 'nestjs-zod';
import { z } from 'zod';

/** The one error body every route answers with (see ErrorBody and mapError). */
export const errorBodySchema = z.object({
  error: z.looseObject({
    code: z.string().describe('Stable machine-readable code, e.g. validation_failed, not_found, rate_limited'),
    message: z.string().describe('Human-readable explanation'),
    details: z.unknown().optional().describe('Code-specific details, e.g. the failing fields'),
  }),
  correlationId: z.string().describe('Also in the x-request-id response header; quote it when reporting a problem'),
});

export class ErrorBodyDto extends createZodDto(errorBodySchema) {}
