export { type GenerationRequest, type Generator, GENERATOR, type GeneratorModel } from './generator';
export { createGenerator, OllamaGenerator, OpenAiGenerator } from './generators';
export { DEFAULT_BACKPRESSURE_MS, MAX_BACKPRESSURE_MS, parseRetryAfter, redactUrl } from './http-json';
export { type ChatMessage, type ModelCatalogClient, modelNameMatches } from './model-client';
export { ModelPresenceCheck, type ModelPresenceOptions } from './model-presence';
export { type OllamaChatRequest, OllamaClient, type OllamaClientOptions } from './ollama.client';
export { type OpenAiChatRequest, OpenAiClient, type OpenAiClientOptions } from './openai.client';
export { ProviderError, type ProviderErrorKind } from './provider-error';
export {
  RERANK_APIS,
  type RerankApi,
  RerankClient,
  type RerankClientOptions,
  type RerankResult,
} from './rerank.client';
export { ProviderClients } from './provider-clients.service';
export { ProviderReadiness } from './provider-readiness.service';
export { ProvidersModule } from './providers.module';
