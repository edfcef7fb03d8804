import { re2ToJs } from './re2-to-js';

/** The translation is judged by what the result matches, the way RE2 would. */
const compile = (re2: string) => {
  const { source, flags } = re2ToJs(re2);
  return new RegExp(source, flags);
};

describe('re2ToJs', () => {
  it('turns a leading (?i) into the i flag', () => {
    expect(re2ToJs('(?i)abc[0-9]+')).toEqual({ source: 'abc[0-9]+', flags: 'i' });
  });

  it('makes only the rest of the group case-insensitive after a (?i) in the middle', () => {
    const regex = compile('^p8e-(?i)[a-z0-9]{4}$');
    expect(regex.flags).toBe('');
    expect(regex.test('p8e-AbC1')).toBe(true);
    expect(regex.test('P8E-abc1')).toBe(false);
    const grouped = compile('^(?:x(?i)y)z$');
    expect(grouped.test('xYz')).toBe(true);
    expect(grouped.test('xyZ')).toBe(false);
  });

  it('keeps (?-i:…) case-sensitive inside a case-insensitive pattern', () => {
    const regex = compile('(?i)^key-(?-i:[Aa]pi|API)-[a-f]{2}$');
    expect(regex.test('KEY-Api-AF')).toBe(true);
    expect(regex.test('key-API-af')).toBe(true);
    expect(regex.test('key-aPI-af')).toBe(false);
  });

  it('applies (?i:…) to its group only', () => {
    const regex = compile('^(?i:ab)cd$');
    expect(regex.test('ABcd')).toBe(true);
    expect(regex.test('abCD')).toBe(false);
  });

  it('translates ., (?s:.), \\z, a leading ] in a class and POSIX classes', () => {
    expect(compile('^a.b$').test('a\rb')).toBe(true); // RE2's . excludes only \n
    expect(compile('^a.b$').test('a\nb')).toBe(false);
    expect(compile('^a(?s:.)b$').test('a\nb')).toBe(true);
    expect(compile('end\\z').test('the end')).toBe(true);
    expect(compile('end\\z').test('the end\n')).toBe(false);
    expect(compile('^\\[[^]]+]$').test('[abc]')).toBe(true);
    expect(compile('^\\[[^]]+]$').test('[a]c]')).toBe(false);
    expect(compile('^[[:alnum:]]+$').test('Ab9')).toBe(true);
    expect(compile('^[[:alnum:]]+$').test('A-9')).toBe(false);
    expect(compile('^\\Q.*\\E$').test('.*')).toBe(true);
    expect(compile('^\\Q.*\\E$').test('ab')).toBe(false);
  });

  it('numbers named groups like any other group', () => {
    const match = compile('(?P<alg>ab)(c)').exec('abc');
    expect([match?.[1], match?.[2]]).toEqual(['ab', 'c']);
  });

  it('refuses what it cannot translate faithfully', () => {
    expect(() => re2ToJs('\\pL+')).toThrow(/unsupported escape/);
    expect(() => re2ToJs('(?m)^a')).toThrow(/unsupported inline flag/);
    expect(() => re2ToJs('(a')).toThrow(/unclosed group/);
    expect(() => re2ToJs('[[:foo:]]')).toThrow(/POSIX class/);
  });
});
