import { candidateSchema, dedupeCandidates } from './fact-candidate';

describe('fact candidates', () => {
  it('accepts well-formed items and cleans their labels', () => {
    const parsed = candidateSchema.parse({
      content: '  The API   uses Fastify. ',
      category: 'Fact',
      importance: 3,
      keywords: ['Fastify', 'fastify', 'http server', 42, '', 'k'.repeat(65)],
      tags: ['Backend', 'backend'],
      confidence: 0.9,
    });
    expect(parsed).toEqual({
      content: 'The API uses Fastify.',
      category: 'fact',
      importance: 3,
      keywords: ['Fastify', 'http server'],
      tags: ['backend'],
    });
  });

  it('rejects items with a wrong content, category or importance', () => {
    for (const item of [
      { content: 'short', category: 'fact', importance: 3 },
      { content: 'A long enough statement.', category: 'facts', importance: 3 },
      { content: 'A long enough statement.', category: 'fact', importance: 6 },
      { content: 'A long enough statement.', category: 'fact', importance: '3' },
      { content: 'x'.repeat(1_001), category: 'fact', importance: 3 },
      { category: 'fact', importance: 3 },
      'just a string',
    ]) {
      expect(candidateSchema.safeParse(item).success).toBe(false);
    }
  });

  it('deduplicates up to case and punctuation', () => {
    const base = { category: 'fact' as const, importance: 3, keywords: [], tags: [] };
    const unique = dedupeCandidates([
      { ...base, content: 'The API uses Fastify.' },
      { ...base, content: 'the api uses fastify' },
      { ...base, content: 'The worker uses BullMQ.' },
    ]);
    expect(unique.map((candidate) => candidate.content)).toEqual(['The API uses Fastify.', 'The worker uses BullMQ.']);
  });
});
