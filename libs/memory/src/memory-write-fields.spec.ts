import { type Memory } from './contract/memory.types';
import { mergeFields } from './memory-write-fields';

describe('a write’s fields', () => {
  it('of an update go over the stored memory, an absent source keeping the stored one', () => {
    const before = {
      content: 'old',
      category: 'fact',
      tags: ['a'],
      keywords: [],
      importance: 3,
      confidence: 0.8,
      source: { path: 'src/a.ts', line: null, contentHash: 'h' },
      pinned: false,
    } as unknown as Memory;
    expect(mergeFields(before, { content: 'new', pinned: true })).toEqual({
      content: 'new',
      category: 'fact',
      tags: ['a'],
      keywords: [],
      importance: 3,
      confidence: 0.8,
      source: { path: 'src/a.ts', line: undefined, contentHash: 'h' },
      pinned: true,
      occurredAt: undefined,
    });
    expect(mergeFields(before, { source: null }).source).toBeNull();
  });
});
