import { rankSessions, ratios, type Ranking, score } from './metrics';

const ranking = (ranked: string[], answerSessions: string[], relevant: string[]): Ranking => ({
  type: 't',
  ranked,
  answerSessions: new Set(answerSessions),
  relevant: new Set(relevant),
});

describe('session metrics (per-question haystack)', () => {
  it('ranks sessions by the first appearance of one of their turns, each once', () => {
    expect(rankSessions(['s2#4', 's1#0', 's2#1', 's3#2', 's1#7'])).toEqual(['s2', 's1', 's3']);
  });

  it('any@5 needs one answer session among the first five sessions, all@5 every one of them', () => {
    const turns = ['a#0', 'b#0', 'a#1', 'c#0', 'd#0', 'e#0', 'f#0'];
    // Sessions in order: a b c d e f — f is sixth.
    expect(score([ranking(turns, ['a', 'f'], ['a#1'])], 'per-question').values).toMatchObject({
      'any@5': 1,
      'all@5': 0,
      'hit@10': 1,
    });
    expect(score([ranking(turns, ['b', 'e'], ['f#0'])], 'per-question').values).toMatchObject({
      'any@5': 1,
      'all@5': 1,
      'hit@10': 1,
    });
    // A session no ranked turn belongs to is not found; the evidence turn past the top 10 is no hit.
    const deep = [...Array.from({ length: 10 }, (_, i) => `x#${i}`), 'y#0'];
    expect(score([ranking(deep, ['z'], ['y#0'])], 'per-question').values).toMatchObject({
      'any@5': 0,
      'all@5': 0,
      'hit@10': 0,
    });
  });

  it('also scores the answer turns as the pooled haystack does: recall@1/5/10 and MRR', () => {
    // Evidence a#1 third and f#0 seventh of seven turns: one of two in the top five, both in ten.
    const turns = ['a#0', 'b#0', 'a#1', 'c#0', 'd#0', 'e#0', 'f#0'];
    expect(score([ranking(turns, ['a', 'f'], ['a#1', 'f#0'])], 'per-question').values).toEqual({
      'any@5': 1,
      'all@5': 0,
      'recall@1': 0,
      'recall@5': 0.5,
      'recall@10': 1,
      'hit@10': 1,
      MRR: 1 / 3,
    });
  });

  it('averages over questions, and ratios to a zero baseline are null', () => {
    const both = score([ranking(['a#0'], ['a'], ['a#0']), ranking(['b#0'], ['a'], ['a#0'])], 'per-question');
    expect(both).toEqual({
      questions: 2,
      values: {
        'any@5': 0.5,
        'all@5': 0.5,
        'recall@1': 0.5,
        'recall@5': 0.5,
        'recall@10': 0.5,
        'hit@10': 0.5,
        MRR: 0.5,
      },
    });
    const none = score([ranking([], ['a'], ['a#0'])], 'per-question');
    expect(ratios(both, none)).toMatchObject({ 'any@5': null, 'all@5': null, 'hit@10': null, MRR: null });
    expect(ratios(none, both)).toMatchObject({ 'any@5': 0, 'all@5': 0, 'hit@10': 0, MRR: 0 });
  });
});

describe('turn metrics (pooled haystack)', () => {
  it('recall@k is the share of evidence turns in the top k, hit@k any of them, MRR the first', () => {
    const values = score([ranking(['x#0', 'a#1', 'y#0', 'a#2'], ['a'], ['a#1', 'a#2', 'a#3'])], 'pooled').values;
    expect(values).toEqual({
      'recall@1': 0,
      'recall@5': 2 / 3,
      'recall@10': 2 / 3,
      'hit@1': 0,
      'hit@5': 1,
      'hit@10': 1,
      MRR: 0.5,
    });
  });
});
