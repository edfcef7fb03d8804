import { type Chunk, chunkText, DEFAULT_CHUNK_OPTIONS } from './chunker';
import { contentHash, normaliseDocumentText, normaliseLabel } from './document-text';

const { target, overlap } = DEFAULT_CHUNK_OPTIONS;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** A deterministic pseudo-random word generator, so the fixtures are stable across runs. */
function words(count: number, seed = 1): string[] {
  const syllables = ['ka', 'lo', 'mi', 'ne', 'ru', 'sa', 'ti', 'vo', 'ze', 'pla', 'qua', 'dro'];
  let state = seed;
  const next = () => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state;
  };
  return Array.from({ length: count }, () => {
    const length = 1 + (next() % 4);
    return Array.from({ length }, () => syllables[next() % syllables.length]).join('');
  });
}

function sentences(count: number, seed = 1): string[] {
  const pool = words(count * 12, seed);
  return Array.from({ length: count }, (_, i) => {
    const body = pool.slice(i * 12, i * 12 + 6 + (i % 6)).join(' ');
    return `${body[0].toUpperCase()}${body.slice(1)}.`;
  });
}

function expectWellFormed(source: string, chunks: Chunk[]): void {
  for (const chunk of chunks) {
    expect(chunk.text).toBe(source.slice(chunk.start, chunk.end));
    expect(chunk.text.length).toBeGreaterThan(0);
    expect(chunk.text.length).toBeLessThanOrEqual(target);
    expect(chunk.text).toBe(chunk.text.trim());
  }
  for (let i = 1; i < chunks.length; i += 1) {
    // Moving forward, and overlapping the previous chunk by at most `overlap`.
    expect(chunks[i].start).toBeGreaterThan(chunks[i - 1].start);
    expect(chunks[i - 1].end - chunks[i].start).toBeLessThanOrEqual(overlap);
  }
  // Nothing but whitespace is left out.
  let covered = 0;
  for (const chunk of chunks) {
    expect(source.slice(covered, Math.max(covered, chunk.start)).trim()).toBe('');
    covered = Math.max(covered, chunk.end);
  }
  expect(source.slice(covered).trim()).toBe('');
}

describe('chunkText', () => {
  it('gives nothing for empty or whitespace-only text and one chunk for tiny text', () => {
    expect(chunkText('')).toEqual([]);
    expect(chunkText(' \n\t \n ')).toEqual([]);
    expect(chunkText('  hello world \n')).toEqual([{ text: 'hello world', start: 2, end: 13 }]);
    const exact = 'x'.repeat(target);
    expect(chunkText(exact)).toEqual([{ text: exact, start: 0, end: target }]);
  });

  it('keeps chunks near the target size with about the configured overlap', () => {
    const text = sentences(400).join(' ');
    const chunks = chunkText(text);
    expectWellFormed(text, chunks);
    expect(chunks.length).toBeGreaterThan(text.length / target);
    for (const chunk of chunks.slice(0, -1)) expect(chunk.text.length).toBeGreaterThan(target / 2);
    for (let i = 1; i < chunks.length; i += 1) {
      const shared = chunks[i - 1].end - chunks[i].start;
      expect(shared).toBeGreaterThanOrEqual(overlap / 4);
      // The overlap really is the same text in both chunks.
      expect(chunks[i - 1].text.endsWith(text.slice(chunks[i].start, chunks[i - 1].end))).toBe(true);
    }
  });

  it('prefers paragraph breaks', () => {
    const paragraphs = Array.from({ length: 12 }, (_, i) => sentences(5, i + 1).join(' '));
    const text = paragraphs.join('\n\n');
    const chunks = chunkText(text);
    expectWellFormed(text, chunks);
    for (const chunk of chunks.slice(0, -1)) {
      expect(text.slice(chunk.end, chunk.end + 2)).toBe('\n\n');
    }
  });

  it('falls back to sentence ends, then to word ends', () => {
    const prose = sentences(200, 7).join(' ');
    const proseChunks = chunkText(prose);
    expectWellFormed(prose, proseChunks);
    for (const chunk of proseChunks) expect(chunk.text.endsWith('.')).toBe(true);
    // Overlaps begin at a sentence start where one is close enough.
    expect(proseChunks.slice(1).filter((chunk) => /^[A-Z]/.test(chunk.text)).length).toBeGreaterThan(
      proseChunks.length / 2,
    );

    const unpunctuated = words(3_000, 3).join(' ');
    const wordChunks = chunkText(unpunctuated);
    expectWellFormed(unpunctuated, wordChunks);
    for (const chunk of wordChunks) {
      expect(chunk.start === 0 || unpunctuated[chunk.start - 1] === ' ').toBe(true);
      expect(chunk.end === unpunctuated.length || unpunctuated[chunk.end] === ' ').toBe(true);
    }
  });

  it('cuts text without any boundary hard, at exactly the target', () => {
    const text = 'abcdefghij'.repeat(500);
    const chunks = chunkText(text);
    expectWellFormed(text, chunks);
    expect(chunks[0].text.length).toBe(target);
    expect(chunks.map((chunk) => chunk.text).join('').length).toBeGreaterThan(text.length);
  });

  it('never splits a surrogate pair or detaches a combining mark', () => {
    const emoji = '😀🚀👍🏽🧪'.repeat(600);
    const accents = 'e\u0301a\u0308o\u0302'.repeat(800);
    const cjk = '知识库检索测试数据。'.repeat(400);
    for (const text of [emoji, accents, cjk, `x${emoji}`]) {
      const chunks = chunkText(text);
      expectWellFormed(text, chunks);
      for (const chunk of chunks) {
        expect(LONE_SURROGATE.test(chunk.text)).toBe(false);
        expect(/^\p{M}/u.test(chunk.text)).toBe(false);
      }
    }
    // CJK full stops count as sentence ends.
    for (const chunk of chunkText(cjk).slice(0, -1)) expect(chunk.text.endsWith('。')).toBe(true);
  });

  it('is deterministic and honours other sizes', () => {
    const text = sentences(300, 11).join('\n');
    expect(chunkText(text)).toEqual(chunkText(text));
    const small = chunkText(text, { target: 300, overlap: 50 });
    for (const chunk of small) expect(chunk.text.length).toBeLessThanOrEqual(300);
    const none = chunkText(text, { target: 300, overlap: 0 });
    for (let i = 1; i < none.length; i += 1) expect(none[i].start).toBeGreaterThanOrEqual(none[i - 1].end);
    expect(() => chunkText(text, { target: 100, overlap: 50 })).toThrow(RangeError);
    expect(() => chunkText(text, { target: 4, overlap: 0 })).toThrow(RangeError);
  });
});

describe('normaliseDocumentText', () => {
  it('folds compatibility forms, unifies line ends and strips control characters but tabs and newlines', () => {
    expect(normaliseDocumentText('  Ｈｅｌｌｏ\r\nworld\rnext\u0000\u0007\u001b[0m\tcol\u009f  ')).toBe(
      'Hello\nworld\nnext[0m\tcol',
    );
  });

  it('replaces lone surrogates so equal-looking text hashes equally', () => {
    expect(normaliseDocumentText('a\uD800b\uDC00c😀')).toBe('a\uFFFDb\uFFFDc😀');
    expect(contentHash(normaliseDocumentText('ｘ'))).toBe(contentHash('x'));
    expect(contentHash('x')).toMatch(/^[0-9a-f]{64}$/);
  });

  it('keeps labels on one line', () => {
    expect(normaliseLabel(' docs/\u0000a.md \n\t title ')).toBe('docs/a.md title');
  });
});
