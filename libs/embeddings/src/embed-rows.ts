import { type TenantTransaction } from '@cairn/tenancy';
import { type Embedder } from './embedding-model';
import { type EmbeddingTargetHandler } from './embedding-targets.registry';

/** Texts per model call and per storing transaction. */
const BATCH = 64;

/**
 * How the worker's jobs give a target's rows their vectors: read what still needs a vector (a
 * short transaction), call the model with no transaction held (DESIGN §11.3), store in another
 * short transaction. The handler's `store` (which inline embeds use too) keeps only vectors
 * whose content hash still matches the row, so a vector computed for text that was edited
 * meanwhile is dropped and the edit's own job embeds the new text.
 */
export async function embedRows(
  handler: EmbeddingTargetHandler,
  embedder: Embedder,
  tx: TenantTransaction,
  ids: readonly string[],
): Promise<{ pending: number; stored: number }> {
  const model = embedder.model;
  const pending = await tx.run(() => handler.pending(ids, model));
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
  return { pending: pending.length, stored };
}
