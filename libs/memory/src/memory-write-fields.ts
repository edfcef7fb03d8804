import { type Memory, type MemoryFields } from './contract/memory.types';

/** An update's fields over the stored memory's. */
export function mergeFields(before: Memory, input: Partial<MemoryFields>): MemoryFields {
  return {
    content: input.content ?? before.content,
    category: input.category ?? before.category,
    tags: input.tags ?? before.tags,
    keywords: input.keywords ?? before.keywords,
    importance: input.importance ?? before.importance,
    confidence: input.confidence ?? before.confidence,
    source:
      input.source === undefined
        ? before.source && {
            path: before.source.path,
            line: before.source.line ?? undefined,
            contentHash: before.source.contentHash ?? undefined,
          }
        : input.source,
    pinned: input.pinned ?? before.pinned,
    occurredAt: input.occurredAt,
  };
}
