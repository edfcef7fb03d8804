import { CANDIDATES_MAX } from './fact-candidate';
import { extractByRules } from './rule-extractor';

describe('rule-based extraction', () => {
  it('extracts explicit decisions, preferences, bugs, todos and code facts', () => {
    const found = extractByRules(
      [
        'User: We decided to use PostgreSQL 15 for the event store.',
        'User: I prefer small pull requests with one concern each.',
        'Assistant: Fix: the retry loop now caps its backoff at 30 seconds.',
        'TODO: rotate the staging database credentials',
        'Assistant: The billing service runs on Kubernetes in eu-west-1.',
        'Assistant: `apps/api` uses Fastify instead of Express.',
      ].join('\n'),
    );
    expect(found.map(({ content, category }) => [category, content])).toEqual([
      ['decision', 'We decided to use PostgreSQL 15 for the event store.'],
      ['preference', 'I prefer small pull requests with one concern each.'],
      ['bug', 'Fix: the retry loop now caps its backoff at 30 seconds.'],
      ['todo', 'TODO: rotate the staging database credentials'],
      ['architecture', 'The billing service runs on Kubernetes in eu-west-1.'],
      ['fact', '`apps/api` uses Fastify instead of Express.'],
    ]);
    expect(found[0]).toMatchObject({
      importance: 4,
      keywords: expect.arrayContaining(['postgresql', 'event', 'store']),
    });
  });

  it('prefers missing a fact to inventing one', () => {
    const found = extractByRules(
      [
        'User: Should we use Redis for the cache?',
        'User: Maybe we decided to use Kafka, I am not sure.',
        'User: We have not decided on the queue yet.',
        'Assistant: I prefer to read the file first.',
        'Alice uses vim.',
        'The problem is a race between the two writers.',
        '```',
        'we decided = true; // we decided to use this in code',
        '```',
        'const x = 1;',
        'ok',
      ].join('\n'),
    );
    expect(found).toEqual([]);
  });

  it('deduplicates and caps the candidates', () => {
    const lines = Array.from({ length: 50 }, (_, i) => `We decided to use library number ${i} for parsing.`);
    expect(extractByRules([...lines, ...lines].join('\n'))).toHaveLength(CANDIDATES_MAX);
    expect(extractByRules('We decided to use Go.\nwe DECIDED to use go!\n').length).toBeLessThanOrEqual(1);
  });
});
