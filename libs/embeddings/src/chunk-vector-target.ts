import { type EmbeddingModel, toVectorLiteral } from './embedding-model';
import {
  type ComputedEmbedding,
  type EmbeddingTargetHandler,
  type MissingOptions,
  type PendingEmbedding,
} from './embedding-targets.registry';

/**
 * The vector store of a table of passages whose text never changes (knowledge-base chunks, code
 * passages): its owner's repository speaks model ids and pgvector literals.
 */
export interface ChunkVectorStore {
  pending(ids: readonly string[], modelId: string): Promise<PendingEmbedding[]>;
  store(vectors: readonly { id: string; contentHash: string; literal: string }[], modelId: string): Promise<number>;
  missing(modelId: string, options: MissingOptions): Promise<string[]>;
}

/** An embedding target over such a store: the owner registers it under its name on module init. */
export function chunkVectorTarget(table: string, store: ChunkVectorStore): EmbeddingTargetHandler {
  return {
    table,
    pending: (ids: readonly string[], model: EmbeddingModel) => store.pending(ids, model.id),
    store: (vectors: readonly ComputedEmbedding[], model: EmbeddingModel) =>
      store.store(
        vectors.map((vector) => ({
          id: vector.id,
          contentHash: vector.contentHash,
          literal: toVectorLiteral(vector.vector),
        })),
        model.id,
      ),
    missing: (model: EmbeddingModel, options: MissingOptions) => store.missing(model.id, options),
  };
}
