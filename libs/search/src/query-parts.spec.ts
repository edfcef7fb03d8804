import { type RankedId } from './contract/search.types';
import { MAX_QUERY_PARTS, mergeParts, queryParts } from './query-parts';

describe('queryParts', () => {
  it('splits "between A and B" into the two things compared', () => {
    expect(
      queryParts("How many days passed between the Holi festival and the Sunday mass at St. Mary's Church?"),
    ).toEqual(['the Holi festival', "the Sunday mass at St. Mary's Church"]);
  });

  it('splits a list joined by commas and a conjunction; short items borrow the words after the list', () => {
    expect(queryParts('How many days did I spend attending workshops, lectures, and conferences in April?')).toEqual([
      'How many days did I spend attending workshops in April',
      'lectures in April',
      'conferences in April',
    ]);
    expect(queryParts('What is the total cost of the car cover and the detailing spray?')).toEqual([
      'What is the total cost of the car cover',
      'the detailing spray',
    ]);
  });

  it('leaves questions about one thing, appositions and joined clauses whole', () => {
    expect(queryParts('Where did I park the car last Tuesday?')).toEqual([]);
    expect(queryParts('What company is Rachel, an old colleague from my previous company, working at?')).toEqual([]);
    expect(queryParts('I read about the release, and I was wondering which flag you suggested?')).toEqual([]);
    expect(queryParts('Did I switch to more water or not?')).toEqual([]);
    expect(queryParts('')).toEqual([]);
  });

  it('leaves long questions and long lists whole', () => {
    const long = `${'word '.repeat(45)}and another thing?`;
    expect(queryParts(long)).toEqual([]);
    const items = ['alpha', 'beta', 'gamma', 'delta', 'epsilon', 'zeta'].slice(0, MAX_QUERY_PARTS + 1);
    expect(queryParts(`Which of ${items.slice(0, -1).join(', ')} and ${items.at(-1)} did we deploy?`)).toEqual([]);
  });
});

describe('mergeParts', () => {
  const hit = (id: string, score: number): RankedId => ({
    id,
    score,
    explain: { fused: score, final: score } as never,
  });

  it('returns the whole question ranking unchanged without parts', () => {
    const whole = [hit('a', 0.9), hit('b', 0.5)];
    expect(mergeParts(whole, []).map((r) => r.id)).toEqual(['a', 'b']);
  });

  it("lifts a part's best match above results that only match the question's other part", () => {
    // The whole question's words favour the first event's turns; the second event's turn is
    // the best match of its own part.
    const whole = [hit('first-1', 1), hit('first-2', 0.9), hit('first-3', 0.85), hit('second', 0.5)];
    const parts = [
      [hit('first-1', 2), hit('first-2', 1.8)],
      [hit('second', 3), hit('first-3', 0.3)],
    ];
    const merged = mergeParts(whole, parts).map((r) => r.id);
    expect(merged.indexOf('second')).toBeLessThan(merged.indexOf('first-3'));
    expect(merged[0]).toBe('first-1');
  });

  it("keeps the whole question's top score as the scale of the merged list", () => {
    const merged = mergeParts([hit('a', 0.8), hit('b', 0.4)], [[hit('a', 5)]]);
    expect(merged[0]?.score).toBeCloseTo(0.8, 10);
  });
});
