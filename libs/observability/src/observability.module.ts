import { Global, Module } from '@nestjs/common';
import { HealthController } from './health.controller';
import { MetricsService } from './metrics.service';
import { ReadinessRegistry } from './readiness.registry';

@Global()
@Module({
  controllers: [HealthController],
  providers: [MetricsService, ReadinessRegistry],
  exports: [MetricsService, ReadinessRegistry],
})
export class ObservabilityModule {}
