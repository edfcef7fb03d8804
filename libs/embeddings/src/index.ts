export { EmbeddingTargetsModule, EmbeddingWorkerModule } from './embedding-pipeline.module';
export { EmbeddingProcessor, type EmbedOutcome } from './embedding.processor';
export {
  type ComputedEmbedding,
  type EmbeddingTargetHandler,
  EmbeddingTargets,
  type PendingEmbedding,
} from './embedding-targets';
export { assertSafeModelId, EMBEDDER, type Embedder, type EmbeddingModel, toVectorLiteral } from './embedding-model';
export { EmbeddingsModule } from './embeddings.module';
export { contentWords, HASH_MODEL, HashEmbedder } from './hash-embedder';
