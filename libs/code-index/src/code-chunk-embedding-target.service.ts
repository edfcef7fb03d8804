import { Injectable, type OnModuleInit } from '@nestjs/common';
import {
  type ComputedEmbedding,
  type EmbeddingModel,
  type EmbeddingTargetHandler,
  EmbeddingTargets,
  type MissingOptions,
  type PendingEmbedding,
  toVectorLiteral,
} from '@cairn/embeddings';
import { CODE_CHUNKS_TABLE, CodeChunksRepository } from './code-chunks.repository';

/**
 * How code passages get their vectors: the worker's embedding processor calls
 * `pending`, embeds outside any transaction, then `store`s. Registered on module init so
 * every app that imports the code-index module can embed (worker) or enqueue (api) chunks.
 */
@Injectable()
export class CodeChunkEmbeddingTarget implements EmbeddingTargetHandler, OnModuleInit {
  readonly table = CODE_CHUNKS_TABLE;

  constructor(
    private readonly targets: EmbeddingTargets,
    private readonly chunks: CodeChunksRepository,
  ) {}

  onModuleInit(): void {
    this.targets.register('code_chunk', this);
  }

  pending(ids: readonly string[], model: EmbeddingModel): Promise<PendingEmbedding[]> {
    return this.chunks.pending(ids, model.id);
  }

  store(vectors: readonly ComputedEmbedding[], model: EmbeddingModel): Promise<number> {
    return this.chunks.store(
      vectors.map((vector) => ({
        id: vector.id,
        contentHash: vector.contentHash,
        literal: toVectorLiteral(vector.vector),
      })),
      model.id,
    );
  }

  missing(model: EmbeddingModel, options: MissingOptions): Promise<string[]> {
    return this.chunks.missing(model.id, options);
  }
}
