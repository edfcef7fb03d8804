import { chunkCode, lineCountOf, searchTextOf, splitIdentifier } from './code-chunker';

describe('chunkCode', () => {
  it('keeps a small file as one passage with its line range', () => {
    expect(chunkCode('const a = 1;\nconst b = 2;\n')).toEqual([
      { ordinal: 0, startLine: 1, endLine: 2, content: 'const a = 1;\nconst b = 2;' },
    ]);
  });

  it('breaks a long file where a symbol starts, and covers every non-blank line once', () => {
    const body = Array.from({ length: 100 }, (_, i) => `  statement${i}();`).join('\n');
    const file = `function one() {\n${body}\n}\nfunction two() {\n${body}\n}\n`;
    const twoStarts = 103;
    const chunks = chunkCode(file, new Set([1, twoStarts]));
    expect(chunks.length).toBeGreaterThan(1);
    expect(chunks[1].startLine).toBe(twoStarts);
    expect(chunks[1].content.startsWith('function two()')).toBe(true);
    const covered = chunks.flatMap((chunk) => chunk.content.split('\n'));
    expect(covered.join('\n')).toBe(file.trimEnd());
  });

  it('never makes a passage far over the cap, even from one giant line', () => {
    const chunks = chunkCode(`${'x'.repeat(50_000)}\n${'y'.repeat(50_000)}\n`);
    expect(chunks).toHaveLength(2);
    expect(Math.max(...chunks.map((chunk) => chunk.content.length))).toBeLessThanOrEqual(3_000);
  });

  it('makes no passage of blank text', () => {
    expect(chunkCode('\n\n   \n')).toEqual([]);
    expect(chunkCode('')).toEqual([]);
  });
});

describe('identifiers as words', () => {
  it('splits camel, Pascal, snake and upper case', () => {
    expect(splitIdentifier('parseHTTPRequest2')).toEqual(['parse', 'http', 'request2']);
    expect(splitIdentifier('snake_case_name')).toEqual(['snake', 'case', 'name']);
    expect(splitIdentifier('MAX_FILE_SIZE')).toEqual(['max', 'file', 'size']);
  });

  it('adds the split words after the passage, once each', () => {
    const text = searchTextOf('const fileSummary = fileSummary(x); run()');
    expect(text).toBe('const fileSummary = fileSummary(x); run()\nfile summary');
  });

  it('counts lines as an editor does', () => {
    expect(lineCountOf('')).toBe(0);
    expect(lineCountOf('a')).toBe(1);
    expect(lineCountOf('a\nb\n')).toBe(2);
  });
});
