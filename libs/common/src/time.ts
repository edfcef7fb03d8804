import { z } from 'zod';

/** How far ahead of the server's clock a date may be: clock skew and time zones, not plans. */
const MAX_AHEAD_MS = 86_400_000;
const EARLIEST = Date.parse('0001-01-01T00:00:00Z');

/**
 * A point in time as ISO 8601 with a time zone (`Z` or `±hh:mm`), at most a day ahead of now
 * (as a string, offset kept): when a fact happened (`occurredAt`), the reference time of a
 * question's dates (`asOf`).
 */
export const pastInstantSchema = z.iso
  .datetime({ offset: true, error: 'must be an ISO 8601 date-time with a time zone, e.g. 2023-05-14T09:30:00Z' })
  .refine((value) => Date.parse(value) >= EARLIEST, 'must be in year 1 or later')
  .refine((value) => Date.parse(value) <= Date.now() + MAX_AHEAD_MS, 'must not be more than a day in the future');
