export { type GenerationRequest, type Generator, GENERATOR, type GeneratorModel } from './generator';
export { ProviderError, type ProviderErrorKind } from './provider-error';
