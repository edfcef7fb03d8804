import * as chrono from 'chrono-node';
import { Calendar, DAY_MS, widthMs } from './calendar';
import {
  type ReferenceTime,
  type ResolvedOrder,
  type ResolvedWhen,
  type TemporalRange,
  type TemporalResolution,
} from './contract/temporal.types';
import { isQuestionWord } from './question-words';
import { type Found, fromChrono, openEnded, PREPOSITION } from './chrono-expressions';

/** "recently" and its kin: the two weeks before the reference date, as a soft boost. */
export const RECENT_DAYS = 14;
const RECENT_WEIGHT = 0.35;

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
  if (spans.length === 0) return { reference, withoutDates: query, contentless: false };
  const stripped = strip(query, spans);
  const contentless = !hasContent(stripped);
  return {
    reference,
    ...(when && { when: when.resolved }),
    ...(order && { order }),
    // An ordering cue alone ("the first time") leaves the question as it was.
    withoutDates: contentless && !when ? query : stripped,
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
