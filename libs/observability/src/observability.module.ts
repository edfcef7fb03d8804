import { Global, Module } from '@nestjs/common';
import { MetricsService } from './metrics.service';
import { ReadinessRegistry } from './readiness.registry';

/** Metrics and readiness checks, which every capability registers its own with. */
@Global()
@Module({
  providers: [MetricsService, ReadinessRegistry],
  exports: [MetricsService, ReadinessRegistry],
})
export class ObservabilityModule {}
