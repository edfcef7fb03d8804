import { BadRequestError } from '@cairn/common';
import {
  contextOptionsSchema,
  parseInput,
  recordEventSchema,
  rememberSchema,
  summarizeSchema,
  wmKeySchema,
} from './working-memory.fields';

describe('working-memory input', () => {
  it('accepts keys of 1-128 characters of [A-Za-z0-9._:/-] only', () => {
    for (const key of ['a', 'current_task', 'deploy/target:prod.v2-eu', 'k'.repeat(128)]) {
      expect(wmKeySchema.safeParse(key).success).toBe(true);
    }
    for (const key of ['', 'k'.repeat(129), 'has space', 'ümlaut', 'semi;colon', 'nul\u0000', '*']) {
      expect(wmKeySchema.safeParse(key).success).toBe(false);
    }
  });

  it('cleans values, then limits them to 4,000 characters', () => {
    expect(rememberSchema.parse({ key: 'k', value: ' a\u0000b\nc\u0007 ' })).toEqual({
      key: 'k',
      value: 'ab\nc',
      importance: 3,
    });
    expect(rememberSchema.safeParse({ key: 'k', value: 'v'.repeat(4_000) }).success).toBe(true);
    expect(rememberSchema.safeParse({ key: 'k', value: 'v'.repeat(4_001) }).success).toBe(false);
    expect(rememberSchema.safeParse({ key: 'k', value: '\u0001\u0002' }).success).toBe(false);
    expect(rememberSchema.safeParse({ key: 'k', value: 'v', importance: 0 }).success).toBe(false);
  });

  it('limits event details by size and depth and strips control characters inside', () => {
    const ok = recordEventSchema.parse({ kind: 'error', summary: 's', details: { 'a\u0000': ['x\u0000y', { b: 1 }] } });
    expect(ok.details).toEqual({ a: ['xy', { b: 1 }] });
    expect(
      recordEventSchema.safeParse({ kind: 'error', summary: 's', details: { big: 'b'.repeat(8_192) } }).success,
    ).toBe(false);
    let deep: unknown = 'leaf';
    for (let i = 0; i < 17; i += 1) deep = { next: deep };
    expect(recordEventSchema.safeParse({ kind: 'error', summary: 's', details: deep }).success).toBe(false);
    expect(recordEventSchema.safeParse({ kind: 'nope', summary: 's' }).success).toBe(false);
  });

  it('limits summaries to 20,000 characters', () => {
    expect(summarizeSchema.safeParse({ text: 't'.repeat(20_000) }).success).toBe(true);
    expect(summarizeSchema.safeParse({ text: 't'.repeat(20_001) }).success).toBe(false);
  });

  it('validates time zones with Intl and bounds the token budget', () => {
    expect(contextOptionsSchema.safeParse({ timezone: 'Asia/Tokyo', budgetTokens: 100 }).success).toBe(true);
    expect(contextOptionsSchema.safeParse({ timezone: 'Mars/Olympus_Mons' }).success).toBe(false);
    expect(contextOptionsSchema.safeParse({ budgetTokens: 99 }).success).toBe(false);
    expect(contextOptionsSchema.safeParse({ budgetTokens: 32_001 }).success).toBe(false);
  });

  it('turns invalid input into a 400 naming the field', () => {
    expect(() => parseInput(rememberSchema, { key: 'bad key', value: 'v' })).toThrow(BadRequestError);
    expect(() => parseInput(rememberSchema, { key: 'bad key', value: 'v' })).toThrow(/^Invalid request: key: /);
  });
});
