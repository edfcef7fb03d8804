import { Injectable, type OnModuleInit } from '@nestjs/common';
import { chunkVectorTarget, EmbeddingTargets } from '@cairn/embeddings';
import { KB_CHUNKS_TABLE, KbChunksRepository } from './kb-chunks.repository';

/**
 * How knowledge-base chunks get their vectors: the worker's embedding processor asks the chunks
 * repository for what is pending, embeds outside any transaction, then stores. Registered on
 * module init so every app that imports the knowledge module can embed (worker) or enqueue (api).
 */
@Injectable()
export class KbChunkEmbeddingTarget implements OnModuleInit {
  constructor(
    private readonly targets: EmbeddingTargets,
    private readonly chunks: KbChunksRepository,
  ) {}

  onModuleInit(): void {
    this.targets.register('kb_chunk', chunkVectorTarget(KB_CHUNKS_TABLE, this.chunks));
  }
}
