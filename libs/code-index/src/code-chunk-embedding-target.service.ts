import { Injectable, type OnModuleInit } from '@nestjs/common';
import { chunkVectorTarget, EmbeddingTargets } from '@cairn/embeddings';
import { CODE_CHUNKS_TABLE, CodeChunksRepository } from './code-chunks.repository';

/**
 * How code passages get their vectors: the worker's embedding processor asks the passages
 * repository for what is pending, embeds outside any transaction, then stores. Registered on
 * module init so every app that imports the code-index module can embed (worker) or enqueue (api).
 */
@Injectable()
export class CodeChunkEmbeddingTarget implements OnModuleInit {
  constructor(
    private readonly targets: EmbeddingTargets,
    private readonly chunks: CodeChunksRepository,
  ) {}

  onModuleInit(): void {
    this.targets.register('code_chunk', chunkVectorTarget(CODE_CHUNKS_TABLE, this.chunks));
  }
}
