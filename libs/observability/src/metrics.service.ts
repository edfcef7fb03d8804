import { Injectable } from '@nestjs/common';
import { collectDefaultMetrics, Histogram, Registry } from 'prom-client';

/**
 * One Prometheus registry per process. Capabilities register their own `cairn_*`
 * metrics on it; the HTTP duration histogram is shared by every app.
 */
@Injectable()
export class MetricsService {
  readonly registry = new Registry();
  readonly httpRequestDuration: Histogram<'app' | 'route' | 'method' | 'status'>;

  constructor() {
    collectDefaultMetrics({ register: this.registry });
    this.httpRequestDuration = new Histogram({
      name: 'cairn_http_request_duration_seconds',
      help: 'HTTP request duration by app, route template, method and status',
      labelNames: ['app', 'route', 'method', 'status'],
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: [this.registry],
    });
  }

  async render(): Promise<{ contentType: string; body: string }> {
    return { contentType: this.registry.contentType, body: await this.registry.metrics() };
  }
}
