import * as chrono from 'chrono-node';
import { Calendar, DAY_MS, shiftYears, widthMs } from './calendar';
import {
  type ReferenceTime,
  type ResolvedOrder,
  type ResolvedWhen,
  type TemporalKind,
  type TemporalRange,
  type TemporalResolution,
} from './contract/temporal.types';
import { isDateWord, isQuestionWord } from './question-words';

/** "recently" and its kin: the two weeks before the reference date, as a soft boost. */
export const RECENT_DAYS = 14;
const RECENT_WEIGHT = 0.35;
const ANCHORED_WEIGHT = 0.6;

/** A date expression found in the question, with where it stands (for stripping). */
interface Found {
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

const PREPOSITION =
  /(?:\b(?:in|on|during|since|from|between|before|after|until|till|by|of|around|at|over|within|for)\s+(?:the\s+)?)$/i;
const ORDER_CUES: readonly [RegExp, ResolvedOrder['direction']][] = [
  [
    /\b(?:for the first time|the first time|first time|first ever|earliest|at first|initially|originally)\b/i,
    'earliest',
  ],
  [/\b(?:did|do|does|have|has|had|when)\s+(?:\p{L}+\s+)?(first)\b/iu, 'earliest'],
  [
    /\b(?:the most recent|most recently|most recent|the latest|latest|the last time|last time|newest|currently|nowadays|right now)\b/i,
    'latest',
  ],
];
const RECENT_CUES: readonly [RegExp, number][] = [
  [/\b(?:recently|lately|of late|in recent (?:days|weeks)|these days)\b/i, RECENT_DAYS],
  [/\b(?:the other day|a few days back)\b/i, 7],
];
const QUARTER = /\bQ([1-4])(?:\s+of)?\s*((?:1[89]|2\d)\d{2})\b/i;
/** A bare year needs a preposition: "in 2023", not "postgres 16 2023" or "ES2023". */
const BARE_YEAR = /\b(in|during|since|after|before|until|from|of|throughout|by)\s+((?:1[89]|2\d)\d{2})\b(?![-/.:]\d)/i;
const WEEKDAY_OR_MONTH_ABBREVIATION =
  /^(?:sun|mon|tue|tues|wed|thu|thur|thurs|fri|sat|jan|feb|mar|apr|jun|jul|aug|sep|sept|oct|nov|dec)\.?$/i;
const UNIT = /\b(day|week|fortnight|month|year)s?\b/i;
const EVENT_STOP = new Set(['when', 'where', 'what', 'which', 'who', 'why', 'how', 'and', 'or', 'but', 'did', 'do']);

/**
 * Reads a question's dates against a reference time: absolute ones ("in May 2023", "on 3 June",
 * "2024-05-14", "Q2 2024", "in 2023", "between March and May 2024"), relative ones ("yesterday",
 * "last Saturday", "two weeks ago", "last month", "the past 3 days", "this week"), soft ones
 * ("recently", "lately", "the other day"), ones counted from an event ("two weeks before the
 * trip", placed later against the memories) and ordering cues ("first time", "earliest",
 * "most recent", "latest"). Natural-language dates are chrono-node's; what a date means for
 * recall (a day, a month, a window, filter or boost) is decided here. Pure: no clock, no I/O.
 */
export function resolveTemporal(query: string, reference: ReferenceTime): TemporalResolution {
  const calendar = Calendar.of(reference);
  const now = reference.instant;
  const spans: [number, number][] = [];
  const order = findOrder(query, spans);
  const found: Found[] = [
    ...findRecent(query, now, calendar),
    ...findQuarter(query, calendar),
    ...findYear(query, now, calendar),
  ];
  const masked = mask(query, [...spans, ...found.map((f): [number, number] => [f.start, f.end])]);
  for (const result of chrono.casual.parse(masked, { instant: now, timezone: reference.offsetMinutes })) {
    const item = fromChrono(result, masked, reference, calendar);
    if (item) found.push(item);
  }
  const when = combine(
    found.sort((a, b) => a.start - b.start),
    query,
  );
  for (const item of when?.used ?? []) spans.push([prepositionStart(query, item.start), item.end]);
  if (spans.length === 0) return { reference, rankedQuery: query, contentless: false };
  const stripped = strip(query, spans);
  const contentless = !hasContent(stripped);
  return {
    reference,
    ...(when && { when: when.resolved }),
    ...(order && { order }),
    // With nothing but an ordering cue left to rank by, the rankers keep the whole question.
    rankedQuery: contentless && !when ? query : stripped,
    contentless: contentless && when !== undefined,
  };
}

function findOrder(query: string, spans: [number, number][]): ResolvedOrder | undefined {
  for (const [pattern, direction] of ORDER_CUES) {
    const match = pattern.exec(query);
    if (!match) continue;
    // For "when did we first…" only the word "first" is the cue.
    const text = match[1] ?? match[0];
    const start = match.index + match[0].length - text.length;
    spans.push([start, start + text.length]);
    return { expression: text, direction };
  }
  return undefined;
}

function findRecent(query: string, now: Date, calendar: Calendar): Found[] {
  for (const [pattern, days] of RECENT_CUES) {
    const match = pattern.exec(query);
    if (!match) continue;
    const to = calendar.endOfDay(now);
    return [
      {
        start: match.index,
        end: match.index + match[0].length,
        expression: match[0],
        kind: 'recent',
        range: { from: new Date(to.getTime() - (days + 1) * DAY_MS), to },
        yearKnown: true,
        weight: RECENT_WEIGHT,
      },
    ];
  }
  return [];
}

function findQuarter(query: string, calendar: Calendar): Found[] {
  const match = QUARTER.exec(query);
  if (!match) return [];
  const quarter = Number(match[1]);
  const year = Number(match[2]);
  const from = calendar.midnight(year, quarter * 3 - 2, 1);
  const to = calendar.midnight(year, quarter * 3 + 1, 1);
  return [
    {
      start: match.index,
      end: match.index + match[0].length,
      expression: match[0],
      kind: 'date',
      range: { from, to },
      yearKnown: true,
      year,
    },
  ];
}

function findYear(query: string, now: Date, calendar: Calendar): Found[] {
  const match = BARE_YEAR.exec(query);
  if (!match) return [];
  const preposition = match[1].toLowerCase();
  const year = Number(match[2]);
  const start = match.index + match[0].length - match[2].length;
  const range = openEnded(preposition, calendar.year(year), now, calendar);
  return [
    { start, end: match.index + match[0].length, expression: match[2], kind: 'date', range, yearKnown: true, year },
  ];
}

/** "since 2023" runs to now, "before 2023" has no start; "in 2023" is the year itself. */
function openEnded(preposition: string, range: TemporalRange, now: Date, calendar: Calendar): TemporalRange {
  if (preposition === 'since' || preposition === 'after') {
    return { from: preposition === 'since' ? range.from : range.to, to: calendar.endOfDay(now) };
  }
  if (preposition === 'before' || preposition === 'until' || preposition === 'by') {
    return { from: null, to: preposition === 'before' ? range.from : range.to };
  }
  return range;
}

function fromChrono(
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

/**
 * One time window from what was found: "between X and Y" joins two; several unrelated ones
 * become their hull, boosted only; an anchored one counts only when it is alone.
 */
function combine(found: Found[], query: string): { resolved: ResolvedWhen; used: Found[] } | undefined {
  if (found.length === 0) return undefined;
  const joined: { item: Found }[] = [];
  for (const item of found) {
    const last = joined[joined.length - 1];
    if (last && joins(query, last.item, item)) last.item = join(last.item, item, query);
    else joined.push({ item });
  }
  const dated = joined.filter((entry) => entry.item.kind !== 'anchored');
  const chosen = dated.length > 0 ? dated : joined.slice(0, 1);
  const used = chosen.map((entry) => entry.item);
  if (chosen.length === 1) return { resolved: toResolved(chosen[0].item), used };
  // "in March 2024 and April": April is of 2024 too.
  const year = chosen.find((entry) => entry.item.yearKnown && entry.item.year !== undefined)?.item.year;
  const ranges = chosen.map(({ item }) =>
    !item.yearKnown && item.inYear && year !== undefined ? item.inYear(year) : item.range!,
  );
  const hull: TemporalRange = {
    from: ranges.some((r) => !r.from) ? null : new Date(Math.min(...ranges.map((r) => r.from!.getTime()))),
    to: ranges.some((r) => !r.to) ? null : new Date(Math.max(...ranges.map((r) => r.to!.getTime()))),
  };
  const weights = chosen.map((entry) => toResolved(entry.item).weight);
  return {
    resolved: {
      expression: chosen.map((entry) => entry.item.expression).join(' … '),
      kind: chosen.every((entry) => entry.item.kind === 'date') ? 'date' : 'relative',
      range: hull,
      use: 'boost',
      weight: Math.min(...weights),
    },
    used,
  };
}

function joins(query: string, a: Found, b: Found): boolean {
  if (a.kind !== 'date' || b.kind !== 'date') return false;
  const gap = query.slice(a.end, b.start).trim().toLowerCase();
  if (['to', '-', '–', '—', 'through', 'thru', 'until', 'till'].includes(gap)) return true;
  return gap === 'and' && /\bbetween\s*$/i.test(query.slice(0, a.start));
}

function join(a: Found, b: Found, query: string): Found {
  // "between March and May 2024": March takes May's year.
  const aRange = !a.yearKnown && b.yearKnown && a.inYear && b.year !== undefined ? a.inYear(b.year) : a.range!;
  return {
    start: a.start,
    end: b.end,
    expression: query.slice(a.start, b.end),
    kind: 'date',
    range: { from: aRange.from, to: b.range!.to },
    yearKnown: a.yearKnown || b.yearKnown,
    year: b.year,
  };
}

function toResolved(item: Found): ResolvedWhen {
  const bounded = item.range?.from != null && item.range?.to != null;
  const use = item.kind === 'date' && item.yearKnown && bounded ? 'filter' : 'boost';
  return {
    expression: item.expression,
    kind: item.kind,
    ...(item.range && { range: item.range }),
    use,
    weight: use === 'filter' ? 1 : (item.weight ?? weightFor(item.range)),
    ...(item.anchor && { anchor: item.anchor }),
  };
}

/** The narrower the window, the surer the question is about it. */
function weightFor(range: TemporalRange | undefined): number {
  const width = range ? widthMs(range) : undefined;
  if (width === undefined) return 0.4;
  if (width <= 2 * DAY_MS) return 1;
  if (width <= 10 * DAY_MS) return 0.8;
  if (width <= 45 * DAY_MS) return 0.6;
  return 0.4;
}

function mask(text: string, spans: readonly [number, number][]): string {
  let out = text;
  for (const [start, end] of spans) out = out.slice(0, start) + ' '.repeat(end - start) + out.slice(end);
  return out;
}

/** Where a found expression starts once its preposition ("in May 2023", "on Friday") is included. */
function prepositionStart(query: string, start: number): number {
  const match = PREPOSITION.exec(query.slice(0, start));
  return match ? start - match[0].length : start;
}

function strip(query: string, spans: readonly [number, number][]): string {
  return mask(query, spans)
    .replace(/\s+/g, ' ')
    .replace(/(^|\s)['’]s\b/g, '$1')
    .replace(/\s+([?!.,;:])/g, '$1')
    .replace(/^[\s,;:.-]+|[\s,;:-]+$/g, '')
    .trim();
}

function hasContent(text: string): boolean {
  return (text.match(/[\p{L}\p{N}']+/gu) ?? []).some((word) => !isQuestionWord(word));
}
