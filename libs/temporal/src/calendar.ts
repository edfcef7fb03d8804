import { type ReferenceTime, type TemporalRange } from './contract/temporal.types';

export const MINUTE_MS = 60_000;
export const DAY_MS = 86_400_000;

/** Calendar arithmetic in the caller's UTC offset: a "day" starts at the caller's midnight. */
export class Calendar {
  constructor(private readonly offsetMinutes: number) {}

  static of(reference: ReferenceTime): Calendar {
    return new Calendar(reference.offsetMinutes);
  }

  /** Local midnight of y-m-d (1-based month; day and month may overflow, as with Date.UTC). */
  midnight(year: number, month: number, day: number): Date {
    const utc = new Date(0);
    utc.setUTCFullYear(year, month - 1, day);
    utc.setUTCHours(0, 0, 0, 0);
    return new Date(utc.getTime() - this.offsetMinutes * MINUTE_MS);
  }

  /** Local calendar fields of an instant. */
  fields(instant: Date): { year: number; month: number; day: number; weekday: number } {
    const local = new Date(instant.getTime() + this.offsetMinutes * MINUTE_MS);
    return {
      year: local.getUTCFullYear(),
      month: local.getUTCMonth() + 1,
      day: local.getUTCDate(),
      weekday: local.getUTCDay(),
    };
  }

  day(year: number, month: number, day: number): TemporalRange {
    return { from: this.midnight(year, month, day), to: this.midnight(year, month, day + 1) };
  }

  month(year: number, month: number): TemporalRange {
    return { from: this.midnight(year, month, 1), to: this.midnight(year, month + 1, 1) };
  }

  year(year: number): TemporalRange {
    return { from: this.midnight(year, 1, 1), to: this.midnight(year + 1, 1, 1) };
  }

  /** The local day an instant falls on. */
  dayOf(instant: Date): TemporalRange {
    const { year, month, day } = this.fields(instant);
    return this.day(year, month, day);
  }

  /** Start of the week (Monday) containing `instant`. */
  weekStart(instant: Date): Date {
    const { year, month, day, weekday } = this.fields(instant);
    return this.midnight(year, month, day - ((weekday + 6) % 7));
  }

  /** The calendar unit containing `instant`. */
  unitOf(unit: 'week' | 'month' | 'year', instant: Date): TemporalRange {
    const { year, month } = this.fields(instant);
    if (unit === 'year') return this.year(year);
    if (unit === 'month') return this.month(year, month);
    const from = this.weekStart(instant);
    return { from, to: new Date(from.getTime() + 7 * DAY_MS) };
  }

  /** The whole unit before the one containing `instant` ("last week": Monday to Monday). */
  previousUnit(unit: 'week' | 'month' | 'year', instant: Date): TemporalRange {
    const { year, month } = this.fields(instant);
    if (unit === 'year') return this.year(year - 1);
    if (unit === 'month') return this.month(year, month - 1);
    const to = this.weekStart(instant);
    return { from: new Date(to.getTime() - 7 * DAY_MS), to };
  }

  /** Start of the local day after the one containing `instant`: the end of "until now". */
  endOfDay(instant: Date): Date {
    return this.dayOf(instant).to!;
  }
}

/** Shifts a range by whole years (for a date whose year was guessed). */
export function shiftYears(range: TemporalRange, years: number): TemporalRange {
  const shift = (date: Date | null) => {
    if (!date) return null;
    const shifted = new Date(date);
    shifted.setUTCFullYear(shifted.getUTCFullYear() + years);
    return shifted;
  };
  return { from: shift(range.from), to: shift(range.to) };
}

export function widthMs(range: TemporalRange): number | undefined {
  return range.from && range.to ? range.to.getTime() - range.from.getTime() : undefined;
}
