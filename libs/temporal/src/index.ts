// Query-time reading of dates in questions: pure functions, no module, no I/O.
export {
  type ReferenceTime,
  type ResolvedOrder,
  type ResolvedWhen,
  type TemporalDirection,
  type TemporalKind,
  type TemporalRange,
  type TemporalResolution,
  type TemporalUse,
} from './contract/temporal.types';
export { RECENT_DAYS, resolveTemporal } from './temporal-resolver';
export { closeness, ORDER_WEIGHT, orderFactors, referenceTimeOf, searchWindow } from './temporal-scoring';
