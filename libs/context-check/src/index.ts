export { ContextCheckModule } from './context-check.module';
export { ContextCheckMcpModule } from './mcp/context-check-mcp.module';
export { ContextCheck } from './context-check.service';
export { CONFIDENCE_WEIGHTS, confidenceOf, type ConfidenceWeights } from './confidence';
export { coverageOf, termsOf } from './evidence-terms';
export { type ConfidenceSignals, type ContextCheckResult, type Evidence } from './contract/context-check.types';
