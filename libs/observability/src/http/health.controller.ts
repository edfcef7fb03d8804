import { Controller, Get, Header, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { type FastifyReply } from 'fastify';
import { MetricsService } from '../metrics.service';
import { Public } from '../public.decorator';
import { ReadinessRegistry } from '../readiness.registry';

/** `/healthz` (liveness, no dependencies), `/readyz` (dependencies), `/metrics` (Prometheus). */
@ApiExcludeController()
@Controller()
export class HealthController {
  constructor(
    private readonly readiness: ReadinessRegistry,
    private readonly metrics: MetricsService,
  ) {}

  @Public()
  @Get('healthz')
  @Header('Cache-Control', 'no-store')
  healthz(): { status: 'ok' } {
    return { status: 'ok' };
  }

  @Public()
  @Get('readyz')
  @Header('Cache-Control', 'no-store')
  async readyz(@Res({ passthrough: true }) reply: FastifyReply): Promise<unknown> {
    const { ready, degraded, checks } = await this.readiness.evaluate();
    reply.status(ready ? 200 : 503);
    return { status: ready ? 'ready' : 'not_ready', degraded, checks };
  }

  @Public()
  @Get('metrics')
  async metricsText(@Res() reply: FastifyReply): Promise<void> {
    const { contentType, body } = await this.metrics.render();
    await reply.header('Content-Type', contentType).header('Cache-Control', 'no-store').send(body);
  }
}
