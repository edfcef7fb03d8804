export { EmbeddingTargetsModule, EmbeddingWorkerModule } from './embedding-pipeline.module';
export { type BackfillState, EmbeddingBackfillsRepository } from './embedding-backfills.repository';
export { EmbeddingProcessor, type EmbedOutcome } from './embedding.processor';
export { EmbeddingRollout } from './embedding-rollout.service';
export { indexName, VectorIndexes } from './vector-indexes';
export {
  type ComputedEmbedding,
  type EmbeddingTargetHandler,
  EmbeddingTargets,
  type MissingOptions,
  type PendingEmbedding,
} from './embedding-targets';
export { assertSafeModelId, EMBEDDER, type Embedder, type EmbeddingModel, toVectorLiteral } from './embedding-model';
export { EmbeddingsModule } from './embeddings.module';
export { contentWords, HASH_MODEL, HashEmbedder } from './hash-embedder';
export { createEmbedder } from './embeddings.module';
export { EmbeddingMetrics, MeasuredEmbedder } from './measured-embedder';
export { OllamaEmbedder, OpenAiEmbedder, type ProviderEmbedderOptions, providerModelId } from './provider-embedders';
