import { type Memory } from './contract/memory.types';
import { mergeFields, namedFields, redactableTexts, redactedFields } from './memory-write-fields';

const given = { content: 'token sk-live-1 in use', tags: ['ops', 'sk-live-2'], keywords: ['billing'] };

describe('a write’s redactable fields', () => {
  it('are sent as content, tags, keywords, and come back in their fields', () => {
    expect(redactableTexts(given, false)).toEqual(['token sk-live-1 in use', 'ops', 'sk-live-2', 'billing']);
    const clean = { texts: ['token [SECRET:a] in use', 'ops', '[SECRET:b]', 'billing'], redacted: [], sealed: [] };
    expect(redactedFields(clean, given)).toEqual({
      content: 'token [SECRET:a] in use',
      tags: ['ops', '[SECRET:b]'],
      keywords: ['billing'],
    });
  });

  it('leave the content out when it is sealed whole: its placeholder stands in', () => {
    expect(redactableTexts(given, true)).toEqual(['ops', 'sk-live-2', 'billing']);
    const clean = { texts: ['ops', '[SECRET:b]', 'billing'], redacted: [], sealed: [] };
    expect(redactedFields(clean, given, { placeholder: '[SECRET:sensitive:x]' })).toEqual({
      content: '[SECRET:sensitive:x]',
      tags: ['ops', '[SECRET:b]'],
      keywords: ['billing'],
    });
  });

  it('of an update keep only what it names (the content too when sealing the stored one)', () => {
    const fields = { content: 'c', tags: ['t'], keywords: ['k'] };
    expect(namedFields(fields, { tags: ['x'] }, false)).toEqual({ tags: ['t'] });
    expect(namedFields(fields, {}, true)).toEqual({ content: 'c' });
    expect(namedFields(fields, { content: 'y', keywords: [] }, false)).toEqual({ content: 'c', keywords: ['k'] });
  });

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
