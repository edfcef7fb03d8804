import { humanDuration, localTime } from './time-anchor';

describe('localTime', () => {
  const instant = new Date('2026-03-01T14:30:05.250Z');

  it('gives the wall-clock time and offset of the zone', () => {
    expect(localTime(instant, 'Asia/Tokyo')).toEqual({
      iso: '2026-03-01T23:30:05+09:00',
      utcOffset: '+09:00',
      text: 'Sunday, 2026-03-01 23:30',
    });
    expect(localTime(instant, 'UTC').iso).toBe('2026-03-01T14:30:05+00:00');
    expect(localTime(instant, 'America/New_York').iso).toBe('2026-03-01T09:30:05-05:00');
  });

  it('handles half-hour offsets, daylight saving time and the day boundary', () => {
    expect(localTime(instant, 'Asia/Kolkata').utcOffset).toBe('+05:30');
    expect(localTime(new Date('2026-07-01T12:00:00Z'), 'Europe/Berlin').iso).toBe('2026-07-01T14:00:00+02:00');
    expect(localTime(new Date('2026-01-01T02:00:00Z'), 'America/Los_Angeles').text).toBe('Wednesday, 2025-12-31 18:00');
  });
});

describe('humanDuration', () => {
  const minute = 60_000;
  const hour = 60 * minute;
  const day = 24 * hour;

  it.each([
    [0, 'less than a minute'],
    [59_999, 'less than a minute'],
    [minute, '1 minute'],
    [12 * minute + 30_000, '12 minutes'],
    [hour + 5 * minute, '1 hour, 5 minutes'],
    [3 * day + 4 * hour + 59 * minute, '3 days, 4 hours'],
    [2 * day + 7 * minute, '2 days'],
    [400 * day, '400 days'],
    [-5, 'less than a minute'],
  ])('%d ms is "%s"', (ms, spoken) => {
    expect(humanDuration(ms)).toBe(spoken);
  });
});
