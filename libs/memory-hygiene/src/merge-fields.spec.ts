import { type Memory } from '@cairn/memory';
import { MAX_TAGS, mergedFields } from './merge-fields';

function memory(overrides: Partial<Memory>): Memory {
  return {
    id: 'id',
    project: 'p',
    projectId: 'pid',
    scope: 'project',
    content: 'Deploys run on Fridays',
    category: 'fact',
    tags: [],
    keywords: [],
    importance: 3,
    confidence: 0.5,
    source: null,
    stale: false,
    verifiedAt: null,
    author: { userId: null, agentId: null, tokenId: null },
    pinned: false,
    sensitive: false,
    version: 1,
    supersededBy: null,
    accessCount: 0,
    lastAccessedAt: null,
    archivedAt: null,
    deletedAt: null,
    occurredAt: new Date(0),
    createdAt: new Date(0),
    updatedAt: new Date(0),
    contentHash: 'h',
    embedded: false,
    ...overrides,
  };
}

describe('mergedFields', () => {
  it("keeps the target's text, unions labels and takes the best scores", () => {
    const target = memory({ tags: ['deploy', 'ci'], keywords: ['Release'], importance: 2, confidence: 0.4 });
    const sources = [
      memory({
        content: 'other',
        tags: ['ci', 'friday'],
        keywords: ['release', 'ship'],
        importance: 4,
        confidence: 0.3,
      }),
      memory({ tags: ['ops'], keywords: ['rollout'], importance: 1, confidence: 0.9, pinned: true }),
    ];
    expect(mergedFields(target, sources)).toEqual({
      content: 'Deploys run on Fridays',
      category: 'fact',
      tags: ['deploy', 'ci', 'friday', 'ops'],
      keywords: ['Release', 'ship', 'rollout'],
      importance: 4,
      confidence: 0.9,
      source: null,
      pinned: true,
    });
  });

  it('caps the union at what the write API accepts', () => {
    const many = (prefix: string) => Array.from({ length: 30 }, (_, i) => `${prefix}${i}`);
    const merged = mergedFields(memory({ tags: many('a') }), [memory({ tags: many('b') })]);
    expect(merged.tags).toHaveLength(MAX_TAGS);
    expect(merged.tags[0]).toBe('a0');
  });
});
