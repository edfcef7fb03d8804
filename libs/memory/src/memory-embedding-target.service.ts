import { Injectable, type OnModuleInit } from '@nestjs/common';
import {
  type ComputedEmbedding,
  type EmbeddingModel,
  type EmbeddingTargetHandler,
  EmbeddingTargets,
  type MissingOptions,
  type PendingEmbedding,
} from '@cairn/embeddings';
import { memoryEmbeddingText } from './memory-content';
import { MEMORY_TABLE, MemoryEmbeddingsRepository } from './memory-embeddings.repository';

/** How the worker embeds memories: content plus the agent's expansion keywords. */
@Injectable()
export class MemoryEmbeddingTarget implements EmbeddingTargetHandler, OnModuleInit {
  readonly table = MEMORY_TABLE;

  constructor(
    private readonly targets: EmbeddingTargets,
    private readonly embeddings: MemoryEmbeddingsRepository,
  ) {}

  onModuleInit(): void {
    this.targets.register('memory', this);
  }

  async pending(ids: readonly string[], model: EmbeddingModel): Promise<PendingEmbedding[]> {
    const rows = await this.embeddings.pending(ids, model.id);
    return rows.map((row) => ({
      id: row.id,
      text: memoryEmbeddingText(row.content, row.keywords),
      contentHash: row.contentHash,
    }));
  }

  store(vectors: readonly ComputedEmbedding[], model: EmbeddingModel): Promise<number> {
    return this.embeddings.store(vectors, model.id);
  }

  missing(model: EmbeddingModel, options: MissingOptions): Promise<string[]> {
    return this.embeddings.missing(model.id, options);
  }
}
