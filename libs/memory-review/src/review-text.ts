import { type Author } from '@cairn/access';
import { type SecretRedaction } from '@cairn/secrets';

/**
 * Notes and reasons are stored text like a memory's: secrets in them become placeholders and
 * the originals are kept sealed (readable with secret_get), as every write does (DESIGN §8).
 */
export async function redactReviewText(
  secrets: SecretRedaction,
  text: string | undefined,
): Promise<{ text: string | null; keep: (projectId: string, reviewId: string, writer: Author) => Promise<void> }> {
  if (text === undefined) return { text: null, keep: () => Promise.resolve() };
  const clean = await secrets.redact([text]);
  return {
    text: clean.texts[0],
    keep: (projectId, reviewId, writer) =>
      secrets.keep(clean.sealed, { projectId, sourceTable: 'memory_reviews', sourceId: reviewId, writer }),
  };
}
