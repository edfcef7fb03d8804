import { Global, Module } from '@nestjs/common';
import { EMBEDDER } from './embedding-model';
import { HashEmbedder } from './hash-embedder';

/**
 * The active embedder. Only the built-in `hash` provider exists so far; the worker issue adds
 * Ollama and OpenAI-compatible providers behind the same `EMBEDDER` token.
 */
@Global()
@Module({
  providers: [{ provide: EMBEDDER, useClass: HashEmbedder }],
  exports: [EMBEDDER],
})
export class EmbeddingsModule {}
