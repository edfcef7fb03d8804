/**
 * Time arithmetic for the briefing's time anchor, with the built-in Intl API only (no date
 * library): an agent has no clock of its own, so the briefing tells it what time it is where
 * its user is and how long it has been away.
 */

export interface LocalTime {
  /** ISO 8601 with the zone's offset, e.g. `2026-03-01T23:30:05+09:00`. */
  readonly iso: string;
  /** `+09:00`, `-05:00`, `+00:00`. */
  readonly utcOffset: string;
  /** `Sunday, 2026-03-01 23:30`. */
  readonly text: string;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone,
      weekday: 'long',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
    });
    // Bounded: only zones Intl accepted get here, and there are a few hundred of them.
    if (formatters.size < 1_000) formatters.set(timeZone, formatter);
  }
  return formatter;
}

/** The wall-clock time at `date` in `timeZone` (which must be valid: see `isTimeZone`). */
export function localTime(date: Date, timeZone: string): LocalTime {
  const parts: Record<string, string> = {};
  for (const part of formatterFor(timeZone).formatToParts(date)) parts[part.type] = part.value;
  const [year, month, day, hour, minute, second] = ['year', 'month', 'day', 'hour', 'minute', 'second'].map((type) =>
    Number(parts[type]),
  ) as [number, number, number, number, number, number];
  const wallClockAsUtc = Date.UTC(year, month - 1, day, hour, minute, second);
  const offsetMinutes = Math.round((wallClockAsUtc - Math.floor(date.getTime() / 1000) * 1000) / 60_000);
  const utcOffset = formatOffset(offsetMinutes);
  const pad = (value: number, width = 2) => String(value).padStart(width, '0');
  const localDate = `${pad(year, 4)}-${pad(month)}-${pad(day)}`;
  return {
    iso: `${localDate}T${pad(hour)}:${pad(minute)}:${pad(second)}${utcOffset}`,
    utcOffset,
    text: `${parts.weekday}, ${localDate} ${pad(hour)}:${pad(minute)}`,
  };
}

function formatOffset(minutes: number): string {
  const sign = minutes < 0 ? '-' : '+';
  const absolute = Math.abs(minutes);
  return `${sign}${String(Math.floor(absolute / 60)).padStart(2, '0')}:${String(absolute % 60).padStart(2, '0')}`;
}

const UNITS: readonly [string, number][] = [
  ['day', 86_400_000],
  ['hour', 3_600_000],
  ['minute', 60_000],
];

/**
 * A gap as people say it: the two largest units, e.g. `3 days, 4 hours`, `1 hour, 5 minutes`,
 * `12 minutes`, `less than a minute`.
 */
export function humanDuration(ms: number): string {
  if (!Number.isFinite(ms) || ms < 60_000) return 'less than a minute';
  let rest = Math.floor(ms);
  const spoken: string[] = [];
  for (const [unit, size] of UNITS) {
    const count = Math.floor(rest / size);
    rest -= count * size;
    if (count > 0) spoken.push(`${count} ${unit}${count === 1 ? '' : 's'}`);
    else if (spoken.length > 0) break;
    if (spoken.length === 2) break;
  }
  return spoken.join(', ');
}
