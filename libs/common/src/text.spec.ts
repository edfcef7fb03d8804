import { displayText, VISIBLE_TEXT, visibleTextSchema } from './text';

describe('visible text', () => {
  it('documents as a pattern every engine reads alike and refuses what cleaning would empty', () => {
    const blank = ['', ' ', '\t\n', '\u00a0\u3000\ufeff', '\u0004\u0007', '\u2028 \u205f', '\u0085'];
    for (const value of blank) {
      expect({ value, visible: VISIBLE_TEXT.test(value) }).toEqual({ value, visible: false });
      expect(visibleTextSchema(10).safeParse(value).success).toBe(false);
    }
    for (const value of ['a', ' x ', '\u00e9', '\u{1f600}', '-'])
      expect(visibleTextSchema(10).parse(value)).toBe(value);
    expect(visibleTextSchema(3).safeParse('abcd').success).toBe(false);
    expect(visibleTextSchema(3).toJSONSchema()).toMatchObject({
      type: 'string',
      maxLength: 3,
      pattern: VISIBLE_TEXT.source,
    });
  });

  it('keeps display names to their documented length before and after collapsing whitespace', () => {
    expect(displayText(10).parse(' a \u0007  b ')).toBe('a b');
    expect(displayText(5).safeParse('abcdef').success).toBe(false);
    expect(displayText(5).safeParse('\u0004').success).toBe(false);
  });
});
