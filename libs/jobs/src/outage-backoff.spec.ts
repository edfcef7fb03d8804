import { outageBackoffMs } from './job-workers.service';

describe('outageBackoffMs', () => {
  const middle = () => 0.5;

  it('doubles from the configured backoff with each deferral in a row', () => {
    expect([0, 1, 2, 3].map((n) => outageBackoffMs(1_000, n, middle))).toEqual([750, 1_500, 3_000, 6_000]);
  });

  it('never waits longer than 30 s, however long the outage', () => {
    expect(outageBackoffMs(1_000, 10, () => 1)).toBe(30_000);
    expect(outageBackoffMs(1_000, 10_000, () => 1)).toBe(30_000);
  });

  it('spreads the returns of jobs held back together over half the delay to all of it', () => {
    expect(outageBackoffMs(1_000, 2, () => 0)).toBe(2_000);
    expect(outageBackoffMs(1_000, 2, () => 1)).toBe(4_000);
  });
});
