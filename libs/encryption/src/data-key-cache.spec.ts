import { randomBytes } from 'node:crypto';
import { DataKeyCache } from './data-key-cache';

const isWiped = (key: Buffer) => key.every((byte) => byte === 0);
const freshKey = () => {
  const key = randomBytes(32);
  key[0] |= 1; // never all zeros by chance
  return key;
};

describe('the unwrapped data-key cache', () => {
  it('wipes a key evicted to make room, and keeps the rest', () => {
    const cache = new DataKeyCache({ max: 2 });
    const [first, second, third] = [freshKey(), freshKey(), freshKey()];
    cache.set('t1', 1, first);
    cache.set('t2', 1, second);
    cache.set('t3', 1, third);
    expect(cache.size).toBe(2);
    expect(cache.get('t1', 1)).toBeUndefined();
    expect(isWiped(first)).toBe(true);
    expect(isWiped(second) || isWiped(third)).toBe(false);
  });

  it('wipes a key when it expires, without being touched', async () => {
    const cache = new DataKeyCache({ ttlMs: 20 });
    const key = freshKey();
    cache.set('t1', 1, key);
    expect(cache.get('t1', 1)).toBe(key);
    await new Promise((wake) => setTimeout(wake, 80));
    expect(isWiped(key)).toBe(true);
    expect(cache.size).toBe(0);
  });

  it('keeps the first of two racing loads and wipes the second; clear wipes everything', () => {
    const cache = new DataKeyCache();
    const [kept, duplicate, other] = [freshKey(), freshKey(), freshKey()];
    cache.set('t1', 1, kept);
    cache.set('t1', 1, duplicate);
    cache.set('t1', 2, other);
    expect(cache.get('t1', 1)).toBe(kept);
    expect(isWiped(duplicate)).toBe(true);
    cache.clear();
    expect([kept, other].every(isWiped)).toBe(true);
  });
});
