import { capAtWord, clipForModel, oneLine } from './text-caps';

describe('text caps', () => {
  it('cuts at a word boundary within the cap and marks the cut', () => {
    const text = 'The quick brown fox jumps over the lazy dog';
    const cut = capAtWord(text, 20);
    expect(cut.length).toBeLessThanOrEqual(20);
    expect(cut).toBe('The quick brown fox…');
    expect(capAtWord(text, 100)).toBe(text);
    expect(capAtWord('x'.repeat(50), 10)).toBe(`${'x'.repeat(9)}…`);
  });

  it('makes one line without control characters', () => {
    expect(oneLine('  a\n\tb\u0000c  \r\n d ')).toBe('a bc d');
  });

  it('keeps head and tail of long model input within the budget', () => {
    const text = `${'h'.repeat(1_000)}${'t'.repeat(1_000)}`;
    const clipped = clipForModel(text, 500, 0.5);
    expect(clipped.length).toBe(500);
    expect(clipped.startsWith('hhh')).toBe(true);
    expect(clipped.endsWith('ttt')).toBe(true);
    expect(clipped).toContain('characters omitted');
    expect(clipForModel('short', 500)).toBe('short');
  });
});
