import { z } from 'zod';

/** Smallest positive normal PostgreSQL `real` (IEEE 754 single precision, FLT_MIN). */
export const REAL_MIN_NORMAL = 1.1754943508222875e-38;

/**
 * A number in [0, 1] that a PostgreSQL `real` column or parameter can hold. JSON allows
 * values such as 1e-320 that are valid doubles but underflow `real` (PostgreSQL rejects
 * them with "out of range"), so magnitudes below the smallest normal `real` are rounded to 0:
 * they mean "zero" for a confidence or a threshold, and rounding keeps the documented range
 * [0, 1] exact (a client generated from the schema may send them and must not be refused).
 */
export function unitIntervalRealSchema() {
  return z
    .number()
    .min(0)
    .max(1)
    .overwrite((value) => (value < REAL_MIN_NORMAL ? 0 : value));
}

/**
 * A number read from a query string: coerced from its text, except that a blank value (`?n=`)
 * is refused rather than read as 0 (`Number('')` is 0), so an empty parameter never passes for a
 * valid one where 0 is allowed (found by the REST fuzzing: `?perCategory=` answered 200).
 */
export function queryNumberSchema<T extends z.ZodType>(schema: T) {
  return z.preprocess((value) => (typeof value === 'string' && value.trim() === '' ? Number.NaN : value), schema);
}
