import { createZodDto } from 'nestjs-zod';
import { z } from 'zod';

/** How many of a tenant's sealed originals (the `secrets` table) one data-key version seals. */
export const keyVersionCountSchema = z.object({
  version: z.number().int().min(1),
  envelopes: z.number().int().min(0),
});

/**
 * Where a tenant's data-key rotation stands: the version new values are sealed with, and how many
 * stored envelopes still name an older one (re-sealed lazily on read and by the maintenance sweep).
 * Old versions stay in the key table after everything has moved: keys are never deleted by this.
 */
export const dataKeyStatusSchema = z.object({
  currentVersion: z.number().int().min(1),
  envelopes: z.number().int().min(0),
  remaining: z.number().int().min(0),
  byVersion: z.array(keyVersionCountSchema),
});
export type DataKeyStatus = z.output<typeof dataKeyStatusSchema>;
export class DataKeyStatusDto extends createZodDto(dataKeyStatusSchema) {}

/** The answer to a rotation: the status right after it, and the version it replaced (null: the tenant had none yet). */
export const dataKeyRotationSchema = dataKeyStatusSchema.extend({
  previousVersion: z.number().int().min(1).nullable(),
});
export type DataKeyRotationResult = z.output<typeof dataKeyRotationSchema>;
export class DataKeyRotationDto extends createZodDto(dataKeyRotationSchema) {}

/** One run of the re-encryption sweep for a tenant. */
export interface ResealSweepReport {
  /** Envelopes now sealed under the current version by this run. */
  readonly resealed: number;
  /** Envelopes that would not open (altered or misplaced); left as they are, and logged. */
  readonly failed: number;
  /** Envelopes that changed under the run (re-sealed on read, or removed) and were left to that. */
  readonly skipped: number;
  /** Envelopes still under an older version after the run. */
  readonly remaining: number;
}
