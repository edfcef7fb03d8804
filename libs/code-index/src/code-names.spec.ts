import { codeNamesIn } from './code-queries.service';

describe('codeNamesIn', () => {
  it('finds words spelled like code, not prose', () => {
    expect(codeNamesIn('why does splitIdentifier drop digits in memory_topics?')).toEqual([
      'splitIdentifier',
      'memory_topics',
    ]);
    expect(codeNamesIn('what does `build` do, and parse()?')).toEqual(['build', 'parse']);
    expect(codeNamesIn('How are uploads batched by size?')).toEqual([]);
    expect(codeNamesIn('Deploys go through Helm')).toEqual([]);
  });

  it('looks up at most three names', () => {
    expect(codeNamesIn('a_ b_ __ $1')).toEqual([]);
    expect(codeNamesIn('one_x two_x three_x four_x')).toHaveLength(3);
  });
});
