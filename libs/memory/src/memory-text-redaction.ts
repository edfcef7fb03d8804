import { type SecretTypeCount } from '@cairn/secret-detection';
import { type SealedSecret, type SecretRedaction } from '@cairn/secrets';
import { type MemoryFields } from './contract/memory.types';

/** The stored texts of a memory write: what a store or an update names of them. */
export interface MemoryTexts {
  readonly content?: string;
  readonly tags?: readonly string[];
  readonly keywords?: readonly string[];
  readonly source?: MemoryFields['source'];
  /** An update's reason, kept in the memory's history. */
  readonly reason?: string;
}

/**
 * Every text of a memory write through SecretRedaction at once (DESIGN §8: content, tags,
 * keywords, the source's path and hash, the reason an update gives), in one call: `input`
 * back with placeholders in place of secrets, what was redacted, and the originals to keep in
 * the write's transaction. A content sealed whole is neither scanned nor stored: its
 * placeholder stands in (`whole`), also for an update that only turns a memory sensitive.
 */
export async function redactMemoryTexts<T extends MemoryTexts>(
  secrets: SecretRedaction,
  input: T,
  whole?: { readonly placeholder: string },
): Promise<{ fields: T; redacted: SecretTypeCount[]; sealed: SealedSecret[] }> {
  const { fields, redacted, sealed } = await secrets.redactFields({
    content: whole ? undefined : input.content,
    tags: input.tags,
    keywords: input.keywords,
    sourcePath: input.source?.path,
    sourceHash: input.source?.contentHash,
    reason: input.reason,
  });
  const clean: T = {
    ...input,
    ...((input.content !== undefined || whole) && { content: whole ? whole.placeholder : fields.content }),
    ...(input.tags !== undefined && { tags: fields.tags }),
    ...(input.keywords !== undefined && { keywords: fields.keywords }),
    ...(input.source && {
      source: {
        ...input.source,
        path: fields.sourcePath,
        ...(input.source.contentHash !== undefined && { contentHash: fields.sourceHash }),
      },
    }),
    ...(input.reason !== undefined && { reason: fields.reason }),
  };
  return { fields: clean, redacted, sealed };
}
