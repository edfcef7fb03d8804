import { type Memory, type MemoryFields } from '@cairn/memory';

/** The same caps the write API enforces, so a merged memory still exports and imports. */
export const MAX_TAGS = 32;
export const MAX_KEYWORDS = 50;

/**
 * What a target becomes when sources are merged into it: its own content and category,
 * the union of tags and keywords (the target's first, then each source's in order, capped),
 * the highest importance and confidence, and pinned if any of them was pinned (a pin says
 * "keep this fact"; the surviving memory carries it on).
 */
export function mergedFields(target: Memory, sources: readonly Memory[]): MemoryFields {
  const all = [target, ...sources];
  const tags = [...new Set(all.flatMap((memory) => memory.tags))].slice(0, MAX_TAGS);
  const keywords = new Map<string, string>();
  for (const keyword of all.flatMap((memory) => memory.keywords)) {
    const key = keyword.toLowerCase();
    if (!keywords.has(key)) keywords.set(key, keyword);
  }
  return {
    content: target.content,
    category: target.category,
    tags,
    keywords: [...keywords.values()].slice(0, MAX_KEYWORDS),
    importance: Math.max(...all.map((memory) => memory.importance)),
    confidence: Math.max(...all.map((memory) => memory.confidence)),
    source: target.source && {
      path: target.source.path,
      line: target.source.line ?? undefined,
      contentHash: target.source.contentHash ?? undefined,
    },
    pinned: all.some((memory) => memory.pinned),
  };
}
