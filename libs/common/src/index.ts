export {
  BadRequestError,
  CairnError,
  ConflictError,
  ForbiddenError,
  MissingTenantContextError,
  NotFoundError,
  RateLimitedError,
  type UnauthenticatedCode,
  UnauthenticatedError,
} from './cairn-error';
export { LATE, withinBudget } from './budget';
export { pastInstantSchema } from './time';
export { queryNumberSchema, REAL_MIN_NORMAL, unitIntervalRealSchema } from './numbers';
export { exitWhenFlushed } from './process-exit';
export {
  agentIdSchema,
  displayText,
  SLUG_PATTERN,
  slugSchema,
  stripControlCharacters,
  VISIBLE_TEXT,
  visibleTextSchema,
  wellFormed,
} from './text';
export { nameForMessage, pathForMessage } from './field-names';
export { isConnectionFailure, ServiceUnavailableError, UNAVAILABLE_RETRY_AFTER_SECONDS } from './unavailable';
export {
  applyConfiguredLimits,
  CONFIGURED_LIMITS,
  CONFIGURED_MAX_LENGTH,
  type ConfiguredLimit,
  type ConfiguredLimits,
  configuredLimitsOf,
  withConfiguredMaxLength,
} from './configured-limits';
