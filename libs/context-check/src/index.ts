export { ContextCheckMcpModule } from './context-check.module';
export { ContextCheck } from './context-check.service';
export { CONFIDENCE_WEIGHTS, confidenceOf, type ConfidenceSignals, type ConfidenceWeights } from './confidence';
export { coverageOf, termsOf } from './evidence-terms';
export { type ContextCheckResult, type Evidence } from './contract/context-check.types';
