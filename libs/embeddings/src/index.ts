export { EmbeddingTargetsModule } from './embedding-pipeline.module';
export { EmbeddingWorkerModule } from './jobs/embedding-worker.module';
export { type BackfillState } from './embedding-backfills.repository';
export { EmbeddingBackfills } from './embedding-backfills.service';
export { EmbeddingProcessor, type EmbedOutcome } from './embedding.processor';
export { EmbeddingRollout } from './embedding-rollout.service';
export { indexName, VectorIndexes } from './vector-indexes.service';
export { VectorIndexesRepository } from './vector-indexes.repository';
export {
  type ComputedEmbedding,
  type EmbeddingTargetHandler,
  EmbeddingTargets,
  type MissingOptions,
  type PendingEmbedding,
} from './embedding-targets.registry';
export { assertSafeModelId, EMBEDDER, type Embedder, type EmbeddingModel, toVectorLiteral } from './embedding-model';
export { EmbeddingsModule } from './embeddings.module';
export { contentWords, HASH_MODEL, HashEmbedder } from './hash-embedder';
export { createEmbedder } from './embeddings.module';
export { EmbeddingMetrics } from './embedding-metrics.service';
export { InlineEmbedding, type InlineOutcome, LATE_INLINE_GRACE_MS } from './inline-embedding.service';
export { MeasuredEmbedder } from './measured-embedder';
export {
  LocalEmbedder,
  type LocalEmbedderOptions,
  LocalModelUnavailableError,
  sha256File,
  verifyModelFiles,
} from './local-embedder';
export {
  BGE_SMALL_MODEL,
  LOCAL_MODEL,
  LOCAL_MODELS,
  type LocalModelDefinition,
  localModel,
  mavenJarUrl,
  MINILM_MODEL,
  type ModelArchive,
  type ModelFile,
  type ModelJar,
  type ModelWheel,
  type Pooling,
} from './local-model';
export { OllamaEmbedder, OpenAiEmbedder, type ProviderEmbedderOptions, providerModelId } from './provider-embedders';
export { STOPWORDS } from './stopwords';
export { type ChunkVectorStore, chunkVectorTarget } from './chunk-vector-target';
