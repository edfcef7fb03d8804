import { MAX_QUERY_PARTS } from './query-parts';
import { parseRewrite, rewriteNote, rewriteOutcomeOf } from './query-rewrite';

const QUESTION = 'How many days passed between the Holi festival and the Sunday mass?';

describe('parseRewrite', () => {
  it('reads the object asked for, a bare array, JSON lines, and JSON inside a code fence or prose', () => {
    const parts = ['when was the Holi festival', 'when was the Sunday mass'];
    expect(parseRewrite(JSON.stringify({ queries: parts }), QUESTION)).toEqual(parts);
    expect(parseRewrite(JSON.stringify(parts), QUESTION)).toEqual(parts);
    expect(parseRewrite(parts.map((part) => JSON.stringify(part)).join('\n'), QUESTION)).toEqual(parts);
    expect(parseRewrite(parts.map((part) => JSON.stringify({ query: part })).join('\n'), QUESTION)).toEqual(parts);
    expect(parseRewrite(`\`\`\`json\n${JSON.stringify({ queries: parts })}\n\`\`\``, QUESTION)).toEqual(parts);
    expect(parseRewrite(`Sure! Here they are:\n${JSON.stringify(parts)}\nHope that helps.`, QUESTION)).toEqual(parts);
    expect(parseRewrite(JSON.stringify({ sub_questions: parts }), QUESTION)).toEqual(parts);
  });

  it('trims, drops the too short, the too long, repeats and the question itself', () => {
    const answer = {
      queries: [
        '  when was the   Holi festival ',
        'ab',
        'x'.repeat(301),
        'When was the Holi festival?',
        QUESTION,
        'how many days passed between the holi festival and the sunday mass',
        'when was the Sunday mass',
      ],
    };
    expect(parseRewrite(JSON.stringify(answer), QUESTION)).toEqual([
      'when was the Holi festival',
      'when was the Sunday mass',
    ]);
  });

  it(`keeps at most ${MAX_QUERY_PARTS}, in the model's order`, () => {
    const many = Array.from({ length: 9 }, (_, index) => `sub-question number ${index}`);
    expect(parseRewrite(JSON.stringify({ queries: many }), QUESTION)).toEqual(many.slice(0, MAX_QUERY_PARTS));
  });

  it.each([
    ['prose', 'I cannot help with that.'],
    ['an empty answer', ''],
    ['an empty list', '{"queries": []}'],
    ['a truncated object', '{"queries": ["when was the Holi festival", "when was'],
    ['numbers', '{"queries": [1, 2, 3]}'],
    ['an object without a list', '{"answer": 42}'],
    ['nested lists', '{"queries": [["a b c"], {"x": "y"}]}'],
    ['null', 'null'],
    ['only the question echoed', JSON.stringify([QUESTION, QUESTION.toUpperCase()])],
  ])('gives nothing for %s', (_label, answer) => {
    expect(parseRewrite(answer, QUESTION)).toEqual([]);
  });

  it('bounds the work on a runaway answer', () => {
    const huge = `["when was the Holi festival", "${'x '.repeat(100_000)}"]`;
    expect(parseRewrite(huge, QUESTION)).toEqual([]);
    expect(parseRewrite(`"when was the Holi festival"\n${'y'.repeat(50_000)}`, QUESTION)).toEqual([
      'when was the Holi festival',
    ]);
  });
});

describe('rewrite notes', () => {
  it('say where the parts came from, and the eval reads the outcome back', () => {
    const detail = { model: 'ollama:llama3.2', parts: 2, timeoutMs: 1500 };
    const notes = {
      ok: rewriteNote('ok', detail),
      timeout: rewriteNote('timeout', detail),
      error: rewriteNote('error', { ...detail, parts: 0 }),
      empty: rewriteNote('empty', detail),
    };
    expect(notes.ok).toBe('query rewrite: ranked 2 sub-queries from ollama:llama3.2 beside the question');
    expect(notes.timeout).toBe(
      'query rewrite: ollama:llama3.2 did not answer within 1500 ms; ranked its 2 parts found without the model',
    );
    expect(notes.error).toBe('query rewrite: ollama:llama3.2 is unavailable; ranked it whole');
    for (const [outcome, note] of Object.entries(notes)) {
      expect(rewriteOutcomeOf(['another note', note])).toBe(outcome);
    }
    expect(rewriteOutcomeOf(['the embedding provider is unavailable: searched by keyword only'])).toBeUndefined();
  });
});
