import { Global, Module } from '@nestjs/common';
import { CAIRN_CONFIG, type CairnConfig } from '@cairn/config';
import { ProviderClients, ProvidersModule } from '@cairn/providers';
import { EMBEDDER, type Embedder } from './embedding-model';
import { EmbedderReadiness } from './embedder-readiness.service';
import { HashEmbedder } from './hash-embedder';
import { LocalEmbedder } from './local-embedder';
import { EmbeddingMetrics } from './embedding-metrics.service';
import { MeasuredEmbedder } from './measured-embedder';
import { OllamaEmbedder, OpenAiEmbedder } from './provider-embedders';

/**
 * The embedder EMBEDDING_PROVIDER names; the built-in hash embedder unless configured otherwise.
 * The local model is loaded (and its files checked) here, so an app configured for it does not
 * start without it: `npm start` decides before starting whether it can use it.
 */
export async function createEmbedder(config: CairnConfig, clients: ProviderClients): Promise<Embedder> {
  const { provider, model, dimensions, batchSize } = config.embeddings;
  if (provider === 'hash') return new HashEmbedder();
  if (provider === 'local') {
    return LocalEmbedder.load({
      modelsDir: config.embeddings.modelsDir,
      model,
      threads: config.embeddings.threads,
      batchSize,
    });
  }
  // Configuration validation already requires both with a provider; this is the backstop.
  if (!model || !dimensions) throw new Error(`EMBEDDING_MODEL and EMBEDDING_DIMENSIONS are required with ${provider}`);
  const options = { model, dimensions, batchSize };
  return provider === 'ollama'
    ? new OllamaEmbedder(clients.ollama, options)
    : new OpenAiEmbedder(clients.openai, options);
}

/**
 * The active embedder behind `EMBEDDER`, measured on the process registry. Imports the
 * (global) providers module, so every app that embeds also gets the provider clients,
 * `GENERATOR` and the provider readiness checks.
 */
@Global()
@Module({
  imports: [ProvidersModule],
  providers: [
    EmbeddingMetrics,
    EmbedderReadiness,
    {
      provide: EMBEDDER,
      useFactory: async (config: CairnConfig, clients: ProviderClients, metrics: EmbeddingMetrics): Promise<Embedder> =>
        new MeasuredEmbedder(await createEmbedder(config, clients), metrics, config.embeddings.batchSize),
      inject: [CAIRN_CONFIG, ProviderClients, EmbeddingMetrics],
    },
  ],
  exports: [EMBEDDER, EmbeddingMetrics],
})
export class EmbeddingsModule {}
