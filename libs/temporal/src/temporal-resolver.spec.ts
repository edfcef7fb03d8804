import { type TemporalResolution } from './contract/temporal.types';
import { resolveTemporal } from './temporal-resolver';
import { closeness, orderFactors, referenceTimeOf, searchWindow } from './temporal-scoring';

/** Monday 23 November 2026, 15:00 UTC. */
const MONDAY = referenceTimeOf('2026-11-23T15:00:00Z');

function range(resolution: TemporalResolution): [string | null, string | null] | undefined {
  const found = resolution.when?.range;
  return found && [found.from?.toISOString() ?? null, found.to?.toISOString() ?? null];
}

describe('resolveTemporal', () => {
  describe('absolute dates: a clear calendar range with its year filters', () => {
    it.each([
      ['what happened in May 2023', ['2023-05-01T00:00:00.000Z', '2023-06-01T00:00:00.000Z'], 'what happened'],
      ['the outage on 3 June 2023', ['2023-06-03T00:00:00.000Z', '2023-06-04T00:00:00.000Z'], 'the outage'],
      ['2024-05-14 incident', ['2024-05-14T00:00:00.000Z', '2024-05-15T00:00:00.000Z'], 'incident'],
      ['roadmap decided in 2023', ['2023-01-01T00:00:00.000Z', '2024-01-01T00:00:00.000Z'], 'roadmap decided'],
      ['Q2 2024 roadmap', ['2024-04-01T00:00:00.000Z', '2024-07-01T00:00:00.000Z'], 'roadmap'],
      ['releases between March and May 2024', ['2024-03-01T00:00:00.000Z', '2024-06-01T00:00:00.000Z'], 'releases'],
      ['from May 1 to May 10, 2024', ['2024-05-01T00:00:00.000Z', '2024-05-11T00:00:00.000Z'], ''],
      ['what changed since 2025', ['2025-01-01T00:00:00.000Z', '2026-11-24T00:00:00.000Z'], 'what changed'],
    ])('%s', (query, expected, withoutDates) => {
      const resolved = resolveTemporal(query, MONDAY);
      expect(resolved.when).toMatchObject({ kind: 'date', use: 'filter', weight: 1 });
      expect(range(resolved)).toEqual(expected);
      expect(resolved.withoutDates).toBe(withoutDates);
    });

    it('takes a date without its year as the last one before the reference date, and only boosts by it', () => {
      const june = resolveTemporal('what did we agree on 3 June', MONDAY);
      expect(june.when).toMatchObject({ kind: 'date', use: 'boost' });
      expect(range(june)).toEqual(['2026-06-03T00:00:00.000Z', '2026-06-04T00:00:00.000Z']);
      const march = resolveTemporal('the migration in March', MONDAY);
      expect(range(march)).toEqual(['2026-03-01T00:00:00.000Z', '2026-04-01T00:00:00.000Z']);
      expect(march.withoutDates).toBe('the migration');
    });

    it('leaves an open-ended range ("before June 2024") to a boost', () => {
      const resolved = resolveTemporal('decisions before June 2024', MONDAY);
      expect(resolved.when).toMatchObject({ use: 'boost' });
      expect(range(resolved)).toEqual([null, '2024-06-01T00:00:00.000Z']);
    });
  });

  describe('relative dates: counted from the reference date, boosted', () => {
    it.each([
      ['what did I do last Saturday?', ['2026-11-21T00:00:00.000Z', '2026-11-22T00:00:00.000Z'], 1],
      ['yesterday', ['2026-11-22T00:00:00.000Z', '2026-11-23T00:00:00.000Z'], 1],
      ['what broke two weeks ago', ['2026-11-06T00:00:00.000Z', '2026-11-14T00:00:00.000Z'], 0.8],
      ['last week', ['2026-11-16T00:00:00.000Z', '2026-11-23T00:00:00.000Z'], 0.8],
      ['last month', ['2026-10-01T00:00:00.000Z', '2026-11-01T00:00:00.000Z'], 0.6],
      ['in the last month', ['2026-10-23T00:00:00.000Z', '2026-11-24T00:00:00.000Z'], 0.6],
      ['the past two weeks', ['2026-11-09T00:00:00.000Z', '2026-11-24T00:00:00.000Z'], 0.6],
      ['since last Monday', ['2026-11-16T00:00:00.000Z', '2026-11-24T00:00:00.000Z'], 0.8],
      ['last year', ['2025-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z'], 0.4],
    ])('%s', (query, expected, weight) => {
      const resolved = resolveTemporal(query, MONDAY);
      expect(resolved.when).toMatchObject({ kind: 'relative', use: 'boost', weight });
      expect(range(resolved)).toEqual(expected);
    });

    it('strips the expression and its preposition from what the rankers get', () => {
      const resolved = resolveTemporal('what did I do last Saturday?', MONDAY);
      expect(resolved.withoutDates).toBe('what did I do?');
      expect(resolved.contentless).toBe(true);
      const eat = resolveTemporal('what did I eat last Saturday', MONDAY);
      expect(eat.withoutDates).toBe('what did I eat');
      expect(eat.contentless).toBe(false);
    });

    it("reads days in the caller's time zone", () => {
      // 01:00 on Tuesday in Berlin is still Monday in UTC: "yesterday" is Berlin's Monday.
      const berlin = resolveTemporal('yesterday', referenceTimeOf('2026-11-24T01:00:00+01:00'));
      expect(range(berlin)).toEqual(['2026-11-22T23:00:00.000Z', '2026-11-23T23:00:00.000Z']);
    });

    it('ignores the future: memories are of the past', () => {
      for (const query of ['tomorrow', 'back in a second', 'next week']) {
        expect(resolveTemporal(query, MONDAY).when).toBeUndefined();
      }
    });
  });

  describe('soft and anchored expressions', () => {
    it('reads "recently" as the last two weeks, weakly', () => {
      const resolved = resolveTemporal('what did we change in CI recently', MONDAY);
      expect(resolved.when).toMatchObject({ kind: 'recent', use: 'boost', weight: 0.35 });
      expect(range(resolved)).toEqual(['2026-11-09T00:00:00.000Z', '2026-11-24T00:00:00.000Z']);
      expect(resolved.withoutDates).toBe('what did we change in CI');
    });

    it('keeps an event-relative expression for recall to place', () => {
      const resolved = resolveTemporal('what did we decide two weeks before the trip', MONDAY);
      expect(resolved.when).toMatchObject({
        kind: 'anchored',
        use: 'boost',
        anchor: { event: 'the trip', offsetMs: -14 * 86_400_000 },
      });
      expect(resolved.when?.range).toBeUndefined();
      expect(resolved.withoutDates).toBe('what did we decide');
    });
  });

  describe('ordering cues', () => {
    it.each([
      ['the first time we deployed to staging', 'earliest', 'we deployed to staging'],
      ['when did we first use redis', 'earliest', 'when did we use redis'],
      ['earliest mention of the billing bug', 'earliest', 'mention of the billing bug'],
      ['the latest decision on postgres', 'latest', 'decision on postgres'],
      ['most recent deploy incident', 'latest', 'deploy incident'],
    ])('%s', (query, direction, withoutDates) => {
      const resolved = resolveTemporal(query, MONDAY);
      expect(resolved.order?.direction).toBe(direction);
      expect(resolved.when).toBeUndefined();
      expect(resolved.withoutDates).toBe(withoutDates);
    });
  });

  describe('no date at all', () => {
    it.each([
      'how do we deploy to staging?',
      'we sat down with the Sun team',
      '1/2 of requests time out',
      'timeout 10:30 on port 8080',
      'upgrade node 22 and postgres 16',
      'ES2023 target in tsconfig',
      'may I ask about the cache?',
      '',
      '!!! ??? ---',
      'asdf qwerty zxcv',
    ])('%s', (query) => {
      const resolved = resolveTemporal(query, MONDAY);
      expect(resolved).toEqual({ reference: MONDAY, withoutDates: query, contentless: false });
    });
  });
});

describe('temporal scoring', () => {
  const saturday = { from: new Date('2026-11-21T00:00:00Z'), to: new Date('2026-11-22T00:00:00Z') };

  it('is 1 inside the range and halves every half-life outside', () => {
    expect(closeness(new Date('2026-11-21T13:00:00Z'), saturday)).toBe(1);
    expect(closeness(new Date('2026-11-23T00:00:00Z'), saturday)).toBeCloseTo(0.5, 2);
    expect(closeness(new Date('2026-11-10T00:00:00Z'), saturday)).toBe(0);
    expect(closeness(new Date('2020-01-01T00:00:00Z'), { from: null, to: saturday.to })).toBe(1);
  });

  it('looks for dated candidates where closeness is at least a quarter', () => {
    expect(searchWindow(saturday)).toEqual({
      from: new Date('2026-11-19T00:00:00Z'),
      to: new Date('2026-11-24T00:00:00Z'),
    });
  });

  it('raises the earliest (or latest) candidate by at most a quarter', () => {
    const dates = ['2024-01-01', '2025-01-01', '2023-01-01'].map((day) => new Date(day));
    expect(orderFactors(dates, 'earliest')).toEqual([1.125, 1, 1.25]);
    expect(orderFactors(dates, 'latest')).toEqual([1.125, 1.25, 1]);
    expect(orderFactors([dates[0], dates[0]], 'latest')).toEqual([1, 1]);
  });

  it('keeps the UTC offset of a reference time', () => {
    expect(referenceTimeOf('2026-11-24T01:00:00-05:30').offsetMinutes).toBe(-330);
    expect(referenceTimeOf('2026-11-24T01:00:00Z').offsetMinutes).toBe(0);
  });
});
