import type * as chrono from 'chrono-node';
import { type Calendar, DAY_MS, shiftYears } from './calendar';
import {
  type ReferenceTime,
  type ResolvedWhen,
  type TemporalKind,
  type TemporalRange,
} from './contract/temporal.types';
import { isDateWord, isQuestionWord } from './question-words';

/**
 * Date expressions as chrono-node reads them, turned into ranges against the reference time:
 * absolute dates, relative spans ("two weeks ago", "last month") and anchored ones ("two weeks
 * before the trip"), with the false positives chrono is known for ruled out.
 */
const ANCHORED_WEIGHT = 0.6;

/** A date expression found in the question, with where it stands (for stripping). */
export interface Found {
  readonly start: number;
  readonly end: number;
  readonly expression: string;
  readonly kind: TemporalKind;
  readonly range?: TemporalRange;
  /** The year was written (or the expression is counted from the reference date). */
  readonly yearKnown: boolean;
  /** For a date without its year: the same date in another year, for "between March and May 2024". */
  readonly inYear?: (year: number) => TemporalRange;
  /** The calendar year a date expression resolved to. */
  readonly year?: number;
  readonly anchor?: ResolvedWhen['anchor'];
  readonly weight?: number;
}

/** The preposition before an expression ("in May 2023", "on Friday"), which belongs to it. */
export const PREPOSITION =
  /(?:\b(?:in|on|during|since|from|between|before|after|until|till|by|of|around|at|over|within|for)\s+(?:the\s+)?)$/i;
const WEEKDAY_OR_MONTH_ABBREVIATION =
  /^(?:sun|mon|tue|tues|wed|thu|thur|thurs|fri|sat|jan|feb|mar|apr|jun|jul|aug|sep|sept|oct|nov|dec)\.?$/i;
const UNIT = /\b(day|week|fortnight|month|year)s?\b/i;
const EVENT_STOP = new Set(['when', 'where', 'what', 'which', 'who', 'why', 'how', 'and', 'or', 'but', 'did', 'do']);

export function fromChrono(
  result: chrono.ParsedResult,
  text: string,
  reference: ReferenceTime,
  calendar: Calendar,
): Found | undefined {
  const start = result.start;
  const tags = result.tags();
  const expression = result.text;
  const before = text.slice(0, result.index);
  const preposition = PREPOSITION.exec(before)?.[0].trim().split(/\s+/)[0].toLowerCase();
  const now = reference.instant;
  // Common words chrono reads as dates: "we sat down", "the Sun", "1/2 of requests", "now", "at 5pm".
  if (!expression.includes(' ') && WEEKDAY_OR_MONTH_ABBREVIATION.test(expression) && !preposition) return undefined;
  if (tags.has('casualReference/now')) return undefined;
  if (tags.has('parser/SlashDateFormatParser') && !start.isCertain('year')) return undefined;
  const dayKnown =
    start.isCertain('day') || start.isCertain('weekday') || [...tags].some((t) => t.startsWith('casualReference/'));
  if (
    !dayKnown &&
    !start.isCertain('month') &&
    !start.isCertain('year') &&
    !/\bthis\s+(week|month|year)\b/i.test(expression)
  ) {
    return undefined; // a time of day alone says nothing about the date
  }
  const relative =
    tags.has('result/relativeDate') ||
    [...tags].some((t) => t.startsWith('casualReference/')) ||
    (start.isCertain('weekday') && !start.isCertain('day')) ||
    /\bthis\s+(week|month|year)\b/i.test(expression);
  const base = { start: result.index, end: result.index + expression.length, expression };

  const anchored = /\b(before|after)$/i.exec(expression);
  if (anchored && tags.has('result/relativeDate')) {
    const event = eventAfter(text.slice(base.end));
    if (!event) return undefined;
    const offsetMs = start.date().getTime() - now.getTime();
    const halfWidthMs = Math.max(DAY_MS, Math.abs(offsetMs) / 4);
    return {
      ...base,
      end: base.end + event.length,
      expression: `${expression}${event}`,
      kind: 'anchored',
      yearKnown: true,
      anchor: { event: event.trim(), offsetMs, halfWidthMs },
      weight: ANCHORED_WEIGHT,
    };
  }

  if (relative) {
    // Memories are of the past: "tomorrow", "next week", "in a second" say nothing about them.
    if (start.date().getTime() > now.getTime()) return undefined;
    const range = relativeRange(expression, before, result, reference, calendar);
    if (!range) return undefined;
    return {
      ...base,
      kind: 'relative',
      range: preposition ? openEnded(preposition, range, now, calendar) : range,
      yearKnown: true,
    };
  }

  const year = start.get('year') ?? calendar.fields(now).year;
  const month = start.get('month') ?? 1;
  const inYear = (y: number): TemporalRange => {
    const range = dayKnown
      ? calendar.day(y, month, start.get('day') ?? 1)
      : start.isCertain('month')
        ? calendar.month(y, month)
        : calendar.year(y);
    return result.end
      ? { from: range.from, to: endOf(result.end, y + ((result.end.get('year') ?? year) - year), dayKnown, calendar) }
      : range;
  };
  const yearKnown = start.isCertain('year') || (result.end?.isCertain('year') ?? false);
  let range = inYear(year);
  let resolvedYear = year;
  // A date without its year is the last one before the reference date: "in May" asked in November.
  if (!yearKnown && range.from && range.from.getTime() > now.getTime()) {
    range = shiftYears(range, -1);
    resolvedYear -= 1;
  }
  if (preposition) range = openEnded(preposition, range, now, calendar);
  return { ...base, kind: 'date', range, yearKnown, year: resolvedYear, ...(!yearKnown && { inYear }) };
}

function endOf(end: chrono.ParsedComponents, year: number, dayKnown: boolean, calendar: Calendar): Date {
  const month = end.get('month') ?? 1;
  if (dayKnown || end.isCertain('day')) return calendar.day(year, month, end.get('day') ?? 1).to!;
  return end.isCertain('month') ? calendar.month(year, month).to! : calendar.year(year).to!;
}

/** Relative expressions: a span up to now, a previous calendar unit, a window around a point, or a day. */
function relativeRange(
  expression: string,
  before: string,
  result: chrono.ParsedResult,
  reference: ReferenceTime,
  calendar: Calendar,
): TemporalRange | undefined {
  const now = reference.instant;
  const text = expression.toLowerCase().replace(/\s+/g, ' ').trim();
  const point = result.start.date();
  const unit = (UNIT.exec(text)?.[1].toLowerCase() ?? 'day') as 'day' | 'week' | 'fortnight' | 'month' | 'year';
  const untilNow = { from: calendar.dayOf(point).from, to: calendar.endOfDay(now) };
  const thisUnit = /^this (week|month|year)$/.exec(text);
  if (thisUnit) return { from: calendar.unitOf(thisUnit[1] as 'week', now).from, to: calendar.endOfDay(now) };
  const previous = /^(?:the )?(?:last|previous|past) (week|month|year)$/.exec(text);
  if (previous) {
    // "in the last month" is the month up to now; "last month" is the calendar month before this one.
    if (
      /\b(?:in|over|during|within|for) the\s*$/i.test(before) ||
      text.startsWith('past') ||
      text.startsWith('the past')
    ) {
      return untilNow;
    }
    return calendar.previousUnit(previous[1] as 'week', now);
  }
  const weekdayOnly = result.start.isCertain('weekday') && !result.start.isCertain('day');
  const casual = [...result.tags()].some((tag) => tag.startsWith('casualReference/'));
  if (weekdayOnly || casual) return calendar.dayOf(point); // "last Saturday", "yesterday"
  if (/^(?:the )?(?:past|last|previous) .*\b(?:days?|weeks?|fortnights?|months?|years?)$/.test(text)) return untilNow;
  if (/\b(?:few|couple|several)\b/.test(text)) {
    return {
      from: calendar.dayOf(new Date(point.getTime() - 2 * DAY_MS)).from,
      to: calendar.dayOf(new Date(point.getTime() + 2 * DAY_MS)).to,
    };
  }
  if (/\bago$/.test(text) && unit !== 'day') {
    const half = { week: 3.5, fortnight: 7, month: 15, year: 182 }[unit] * DAY_MS;
    return {
      from: calendar.dayOf(new Date(point.getTime() - half)).from,
      to: calendar.dayOf(new Date(point.getTime() + half)).to,
    };
  }
  return calendar.dayOf(point);
}

/** The event an anchored expression counts from: the next few words, up to punctuation or a question word. */
function eventAfter(rest: string): string | undefined {
  const match = /^\s+[\p{L}\p{N}' -]+/u.exec(rest);
  if (!match) return undefined;
  const words: string[] = [];
  for (const word of match[0].trim().split(/\s+/)) {
    if (words.length >= 5 || (words.length > 0 && EVENT_STOP.has(word.toLowerCase()))) break;
    words.push(word);
  }
  if (!words.some((word) => !isQuestionWord(word) && !isDateWord(word))) return undefined;
  const length = rest.indexOf(words[words.length - 1]) + words[words.length - 1].length;
  return rest.slice(0, length);
}

/** "since 2023" runs to now, "before 2023" has no start; "in 2023" is the year itself. */
export function openEnded(preposition: string, range: TemporalRange, now: Date, calendar: Calendar): TemporalRange {
  if (preposition === 'since' || preposition === 'after') {
    return { from: preposition === 'since' ? range.from : range.to, to: calendar.endOfDay(now) };
  }
  if (preposition === 'before' || preposition === 'until' || preposition === 'by') {
    return { from: null, to: preposition === 'before' ? range.from : range.to };
  }
  return range;
}
