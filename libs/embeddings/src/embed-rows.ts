import { type TenantTransaction } from '@cairn/tenancy';
import { type Embedder } from './embedding-model';
import { type EmbeddingTargetHandler } from './embedding-targets.registry';

/** Texts per model call and per storing transaction. */
const BATCH = 64;

/**
 * The one way a target's rows get their vectors, for the worker's jobs and for inline embeds
 * alike: read what still needs a vector (a short transaction), call the model with no
 * transaction held (DESIGN §11.3), store in another short transaction. The handler's `store`
 * keeps only vectors whose content hash still matches the row, so a vector computed for text
 * that was edited meanwhile is dropped and the edit's own job embeds the new text.
 * `maxChars`, when given, leaves the rows whose text is longer to the caller's fallback.
 */
export async function embedRows(
  handler: EmbeddingTargetHandler,
  embedder: Embedder,
  tx: TenantTransaction,
  ids: readonly string[],
  maxChars?: number,
): Promise<{ pending: number; stored: number; tooLong: number }> {
  const model = embedder.model;
  const found = await tx.run(() => handler.pending(ids, model));
  const pending = maxChars === undefined ? found : found.filter((row) => row.text.length <= maxChars);
  let stored = 0;
  for (let start = 0; start < pending.length; start += BATCH) {
    const batch = pending.slice(start, start + BATCH);
    const vectors = await embedder.embed(batch.map((row) => row.text));
    const computed = batch.map((row, index) => ({
      id: row.id,
      contentHash: row.contentHash,
      vector: vectors[index] ?? new Float32Array(model.dimensions),
    }));
    stored += await tx.run(() => handler.store(computed, model));
  }
  return { pending: pending.length, stored, tooLong: found.length - pending.length };
}
