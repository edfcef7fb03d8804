import { REAL_MIN_NORMAL, unitIntervalRealSchema } from './numbers';

describe('unitIntervalRealSchema', () => {
  const schema = unitIntervalRealSchema();

  it('rounds magnitudes a PostgreSQL real cannot hold to 0', () => {
    expect(schema.parse(1e-320)).toBe(0);
    expect(schema.parse(5e-324)).toBe(0);
    expect(schema.parse(1e-39)).toBe(0);
  });

  it('keeps every value a real can hold, including the smallest normal one', () => {
    expect(schema.parse(REAL_MIN_NORMAL)).toBe(REAL_MIN_NORMAL);
    expect(schema.parse(0)).toBe(0);
    expect(schema.parse(0.25)).toBe(0.25);
    expect(schema.parse(1)).toBe(1);
  });

  it('still refuses values outside [0, 1] and non-numbers', () => {
    expect(schema.safeParse(-1e-320).success).toBe(false);
    expect(schema.safeParse(1.0000001).success).toBe(false);
    expect(schema.safeParse(Number.NaN).success).toBe(false);
    expect(schema.safeParse('0.5').success).toBe(false);
  });

  it('is documented as a plain number range', () => {
    expect(schema.toJSONSchema()).toMatchObject({ type: 'number', minimum: 0, maximum: 1 });
  });
});
