import { createHmac } from 'node:crypto';
import { type SecretFinding } from './contract/secret.types';
import { defaultSecretRules } from './default-rules';
import { PLACEHOLDER_PATTERN, redactSecrets } from './redaction';
import { SecretScanner } from './secret-scanner';

/** As the write path will do it: an HMAC under a tenant key, cut short. */
const idFor = (value: string) => createHmac('sha256', 'tenant-key').update(value).digest('base64url').slice(0, 12);

const finding = (
  start: number,
  end: number,
  type = 'github-pat',
  tier: SecretFinding['tier'] = 'high',
): SecretFinding => ({
  ruleId: `gitleaks:${type}`,
  type,
  tier,
  start,
  end,
});

describe('redactSecrets', () => {
  it('replaces each finding with a placeholder and counts them per type', () => {
    const text = 'token AAAA then BBBB and a password CCCC.';
    const result = redactSecrets(
      text,
      [finding(6, 10), finding(16, 20, 'aws-access-token'), finding(36, 40, 'generic-api-key', 'medium')],
      idFor,
    );
    expect(result.text).toBe(
      `token [SECRET:github-pat:${idFor('AAAA')}] then [SECRET:aws-access-token:${idFor('BBBB')}] ` +
        `and a password [SECRET:generic-api-key:${idFor('CCCC')}].`,
    );
    expect(result.summary).toEqual([
      { type: 'github-pat', count: 1 },
      { type: 'aws-access-token', count: 1 },
      { type: 'generic-api-key', count: 1 },
    ]);
  });

  it('gives the same value the same id and different values different ids', () => {
    const text = 'first AAAA, again AAAA, other BBBB';
    const result = redactSecrets(text, [finding(6, 10), finding(18, 22), finding(30, 34)], idFor);
    const ids = [...result.text.matchAll(PLACEHOLDER_PATTERN)].map((match) => match[2]);
    expect(ids).toEqual([idFor('AAAA'), idFor('AAAA'), idFor('BBBB')]);
    expect(ids[0]).not.toBe(ids[2]);
    expect(result.summary).toEqual([{ type: 'github-pat', count: 3 }]);
  });

  it('merges overlapping findings into one placeholder named by the higher tier, and keeps touching ones apart', () => {
    const text = 'key=ABCDEFGHIJ!';
    const merged = redactSecrets(
      text,
      [finding(4, 14, 'generic-api-key', 'medium'), finding(6, 12, 'stripe-access-token')],
      idFor,
    );
    expect(merged.text).toBe(`key=[SECRET:stripe-access-token:${idFor('ABCDEFGHIJ')}]!`);
    expect(merged.summary).toEqual([{ type: 'stripe-access-token', count: 1 }]);

    const touching = redactSecrets(text, [finding(4, 8), finding(8, 14)], idFor);
    expect(touching.text).toBe(`key=[SECRET:github-pat:${idFor('ABCD')}][SECRET:github-pat:${idFor('EFGHIJ')}]!`);
  });

  it('returns the text unchanged without findings', () => {
    expect(redactSecrets('nothing here', [], idFor)).toEqual({ text: 'nothing here', summary: [] });
  });

  it.each([
    ['a span past the end', finding(2, 99)],
    ['an empty span', finding(3, 3)],
    ['a negative start', finding(-1, 2)],
    ['a fractional offset', finding(1.5, 4)],
    ['a type that would break the placeholder', finding(0, 4, 'x]:y')],
  ])('refuses %s', (_name, bad) => {
    expect(() => redactSecrets('some text here', [bad], idFor)).toThrow(RangeError);
  });

  it('refuses an id that would break the placeholder', () => {
    expect(() => redactSecrets('AAAA', [finding(0, 4)], () => 'a]b')).toThrow(RangeError);
  });

  it('leaves nothing for the scanner to find, and no value, in what it stores', () => {
    const scanner = new SecretScanner(defaultSecretRules());
    const text =
      'GITHUB_TOKEN=ghp_Zq8vN3kT5wR1yL7pC2xM9bH4dF6gJ0sA1b2c; db postgres://app:Xk29fLq7rT@db:5432/app; ' +
      'api_key = "q7Wm2Zx9Lk4Tn8Rb3Vc6Yh1Jp5Sd0Fg"';
    const findings = scanner.scan(text);
    const values = findings.map((f) => text.slice(f.start, f.end));
    const result = redactSecrets(text, findings, idFor);
    for (const value of values) expect(result.text).not.toContain(value);
    expect(scanner.scan(result.text)).toEqual([]);
    expect(result.summary).toEqual([
      { type: 'github-pat', count: 1 },
      { type: 'connection-string-password', count: 1 },
      { type: 'generic-api-key', count: 1 },
    ]);
  });
});
