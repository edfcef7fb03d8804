import { bodyText, isHtml } from './fetched-body';

const fetched = (contentType: string, bytes: number[] | string) => ({
  contentType,
  body: typeof bytes === 'string' ? Buffer.from(bytes) : Buffer.from(bytes),
});

describe('bodyText', () => {
  it('decodes with the charset the Content-Type names', () => {
    expect(bodyText(fetched('text/html; charset=ISO-8859-1', [0x63, 0x61, 0x66, 0xe9]))).toBe('café');
    expect(bodyText(fetched('text/plain;charset="windows-1252"', [0x80, 0x20, 0x35]))).toBe('€ 5');
    expect(bodyText(fetched('text/plain; charset=shift_jis', [0x93, 0xfa, 0x96, 0x7b]))).toBe('日本');
  });

  it('falls back to UTF-8 without a charset, with an unknown one, or with a malformed Content-Type', () => {
    for (const contentType of ['', 'text/html', 'text/html; charset=klingon', 'not a type']) {
      expect(bodyText(fetched(contentType, 'café ✓'))).toBe('café ✓');
    }
  });

  it('replaces bytes invalid in the encoding instead of failing', () => {
    expect(bodyText(fetched('text/plain; charset=utf-8', [0x61, 0xff, 0x62]))).toBe('a\uFFFDb');
  });
});

describe('isHtml', () => {
  it.each([
    ['text/html; charset=utf-8', true],
    ['TEXT/HTML', true],
    ['application/xhtml+xml', true],
    ['text/plain', false],
    ['text/markdown', false],
    ['application/json', false],
    ['', false],
  ])('%j → %s', (contentType, expected) => {
    expect(isHtml({ contentType })).toBe(expected);
  });
});
