import { fileQueries, namedFiles, promptQuery } from './prompt-text';

describe('what the UserPromptSubmit hook recalls', () => {
  it.each([['ok'], ['continue'], ['thanks, that looks good'], ["what's 2+2"], ['yes do it'], ['/compact'], ['']])(
    'asks nothing for a prompt with fewer than two words that name something: %p',
    (prompt) => {
      expect(promptQuery(prompt)).toBeUndefined();
    },
  );

  it('asks the prompt itself, whitespace folded, a leading slash command dropped', () => {
    expect(promptQuery('how do I   run the\nmigrations?')).toBe('how do I run the migrations?');
    expect(promptQuery('/review src/billing/proration.ts rounding')).toBe('src/billing/proration.ts rounding');
    expect(promptQuery('x'.repeat(5_000) + ' word')?.length).toBe(4_000);
  });

  it('finds the files a prompt names, and not sentence ends, versions or words with dots', () => {
    expect(namedFiles('fix @src/billing/proration.ts and ./lib/money.ts, then Footer.tsx.')).toEqual([
      'src/billing/proration.ts',
      'lib/money.ts',
      'Footer.tsx',
    ]);
    expect(namedFiles('bump it to v1.2.3 and we are done. e.g. later')).toEqual([]);
    expect(namedFiles('see (app/layout.tsx) and `config/footer.ts`')).toEqual(['app/layout.tsx', 'config/footer.ts']);
  });

  it('asks each named file as its path and its name, never a generic one', () => {
    expect(fileQueries(['src/billing/proration.ts', 'src/index.ts', 'proration.spec.ts'])).toEqual([
      'src/billing/proration.ts',
      'proration',
      'src/index.ts',
    ]);
    expect(fileQueries([])).toEqual([]);
  });
});
