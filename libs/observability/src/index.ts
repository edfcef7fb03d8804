export { ObservabilityHttpModule } from './http/observability-http.module';
export { createRootLogger, PinoLoggerService } from './logger';
export { MetricsService } from './metrics.service';
export { ObservabilityModule } from './observability.module';
export {
  CHECKS_CREDENTIALS,
  ChecksCredentials,
  Public,
  PUBLIC_ROUTE,
  REDIRECTS_ERRORS,
  RedirectsErrors,
} from './public.decorator';
export {
  type ReadinessCheck,
  type ReadinessOptions,
  ReadinessRegistry,
  type ReadinessReport,
  type ReadinessResult,
} from './readiness.registry';
export { correlationIdFrom, RequestContext, type RequestContextData } from './request-context';
