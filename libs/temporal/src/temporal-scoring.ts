import { DAY_MS, widthMs } from './calendar';
import { type ReferenceTime, type TemporalDirection, type TemporalRange } from './contract/temporal.types';

/** How much an ordering cue ("first time", "latest") can raise the best-placed candidate: ×1.25 at most. */
export const ORDER_WEIGHT = 0.25;
/** Below this closeness a memory is not near the range at all. */
const NEGLIGIBLE = 0.05;
const OPEN_RANGE_HALF_LIFE_MS = 30 * DAY_MS;

/**
 * How close a moment is to a range: 1 inside, halving every half-life outside (half the
 * range's width, at least a day): a memory dated the day after "last Saturday" still counts
 * half, one a week off hardly at all.
 */
export function closeness(at: Date, range: TemporalRange): number {
  const t = at.getTime();
  const before = range.from ? range.from.getTime() - t : -Infinity;
  const after = range.to ? t - range.to.getTime() + 1 : -Infinity;
  const distance = Math.max(before, after, 0);
  if (distance === 0) return 1;
  const value = Math.pow(0.5, distance / halfLife(range));
  return value < NEGLIGIBLE ? 0 : value;
}

/** The range widened to where closeness falls to a quarter: where dated candidates are looked for. */
export function searchWindow(range: TemporalRange): TemporalRange {
  const margin = 2 * halfLife(range);
  return {
    from: range.from && new Date(range.from.getTime() - margin),
    to: range.to && new Date(range.to.getTime() + margin),
  };
}

function halfLife(range: TemporalRange): number {
  const width = widthMs(range);
  return width === undefined ? OPEN_RANGE_HALF_LIFE_MS : Math.max(DAY_MS, width / 2);
}

/**
 * Multipliers for an ordering cue over candidates' dates, in their order: 1 + ORDER_WEIGHT for
 * the earliest (or latest), falling linearly to 1 for the other end; equal dates share one.
 */
export function orderFactors(dates: readonly Date[], direction: TemporalDirection): number[] {
  const times = dates.map((date) => date.getTime());
  const distinct = [...new Set(times)].sort((a, b) => (direction === 'earliest' ? a - b : b - a));
  if (distinct.length < 2) return times.map(() => 1);
  const position = new Map(distinct.map((time, index) => [time, index / (distinct.length - 1)]));
  return times.map((time) => 1 + ORDER_WEIGHT * (1 - position.get(time)!));
}

/** A reference time from an ISO 8601 date-time, keeping its UTC offset for the caller's calendar. */
export function referenceTimeOf(iso: string): ReferenceTime {
  const match = /([+-])(\d{2}):?(\d{2})$/.exec(iso);
  const offsetMinutes = match ? (match[1] === '-' ? -1 : 1) * (Number(match[2]) * 60 + Number(match[3])) : 0;
  return { instant: new Date(iso), offsetMinutes };
}
