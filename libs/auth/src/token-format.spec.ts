import { generateSessionToken, hashToken, isWellFormedSessionToken, secretsEqual } from './token-format';

describe('session token format', () => {
  it('is prefixed, carries 256 random bits, and is stored only as a SHA-256 hash', () => {
    const { token, hash, hint } = generateSessionToken();
    expect(token).toMatch(/^cairn_st_[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(token.slice('cairn_st_'.length), 'base64url')).toHaveLength(32);
    expect(hash).toEqual(hashToken(token));
    expect(hash).toHaveLength(32);
    expect(hint.length).toBeLessThan(20);
    expect(token.startsWith(hint.replace('…', ''))).toBe(true);
  });

  it('never repeats', () => {
    const tokens = new Set(Array.from({ length: 1000 }, () => generateSessionToken().token));
    expect(tokens.size).toBe(1000);
  });

  it.each([
    '',
    'cairn_st_',
    'cairn_st_short',
    `cairn_st_${'a'.repeat(44)}`,
    `CAIRN_ST_${'a'.repeat(43)}`,
    `cairn_st_${'a'.repeat(42)}'`,
  ])('rejects malformed %p', (candidate) => expect(isWellFormedSessionToken(candidate)).toBe(false));

  it('compares secrets regardless of length', () => {
    expect(secretsEqual('abc', 'abc')).toBe(true);
    expect(secretsEqual('abc', 'abcd')).toBe(false);
  });
});
