import { type RedactedTexts } from '@cairn/secrets';
import { type Memory, type MemoryFields } from './contract/memory.types';

/** The text fields of a write that secret redaction sees, as given. */
export interface RedactableFields {
  readonly content: string;
  readonly tags: readonly string[];
  readonly keywords: readonly string[];
}

/** What a write's redactable fields are sent to SecretRedaction as (the content left out when it is sealed whole). */
export function redactableTexts(given: RedactableFields, sealedWhole: boolean): string[] {
  return [...(sealedWhole ? [] : [given.content]), ...given.tags, ...given.keywords];
}

/**
 * The redacted texts back in their fields (they were passed as `redactableTexts` gave them,
 * without the content when it was sealed whole: its placeholder stands in).
 */
export function redactedFields(
  clean: RedactedTexts,
  given: RedactableFields,
  whole?: { placeholder: string },
): { content: string; tags: string[]; keywords: string[] } {
  const content = whole ? whole.placeholder : clean.texts[0];
  const labels = whole ? clean.texts : clean.texts.slice(1);
  return {
    content,
    tags: labels.slice(0, given.tags.length),
    keywords: labels.slice(given.tags.length, given.tags.length + given.keywords.length),
  };
}

/** Only the fields an update names, so an absent one keeps its stored value. */
export function namedFields(
  fields: ReturnType<typeof redactedFields>,
  input: Partial<RedactableFields>,
  sealed: boolean,
): Partial<RedactableFields> {
  return {
    ...((input.content !== undefined || sealed) && { content: fields.content }),
    ...(input.tags !== undefined && { tags: fields.tags }),
    ...(input.keywords !== undefined && { keywords: fields.keywords }),
  };
}

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
