import { Module } from '@nestjs/common';
import { ObservabilityModule } from '../observability.module';
import { HealthController } from './health.controller';

/** `/healthz`, `/readyz` and `/metrics`: every app that serves HTTP. */
@Module({ imports: [ObservabilityModule], controllers: [HealthController] })
export class ObservabilityHttpModule {}
