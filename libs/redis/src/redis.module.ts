import { Global, Inject, Logger, Module, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { CAIRN_CONFIG, type CairnConfig } from '@cairn/config';
import { ReadinessRegistry } from '@cairn/observability';
import { Redis } from 'ioredis';

export const REDIS = Symbol('REDIS');

/**
 * The shared ioredis client. It connects lazily and keeps retrying in the background,
 * so an app boots and reports not-ready while Redis is down instead of crashing.
 */
@Global()
@Module({
  providers: [
    {
      provide: REDIS,
      inject: [CAIRN_CONFIG],
      useFactory: (config: CairnConfig) =>
        new Redis(config.redis.url, {
          lazyConnect: true,
          connectionName: `cairn-${config.app}`,
          maxRetriesPerRequest: 2,
          enableOfflineQueue: true,
          retryStrategy: (attempt) => Math.min(attempt * 200, 5_000),
          // A client that never connected otherwise holds shutdown for its 2 s default.
          disconnectTimeout: 200,
        }),
    },
  ],
  exports: [REDIS],
})
export class RedisModule implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger('Redis');
  private healthy = true;

  constructor(
    @Inject(REDIS) private readonly redis: Redis,
    private readonly readiness: ReadinessRegistry,
    @Inject(CAIRN_CONFIG) private readonly config: CairnConfig,
  ) {}

  onModuleInit(): void {
    // Without a listener ioredis errors would crash the process; log once per outage instead
    // of once per reconnect attempt, and let /readyz report the state.
    this.redis.on('error', (error: Error) => {
      if (!this.healthy) return;
      this.healthy = false;
      this.logger.warn({ msg: 'Redis unreachable; retrying in the background', error: error.message });
    });
    this.redis.on('ready', () => {
      if (!this.healthy) this.logger.log('Redis reachable again');
      this.healthy = true;
    });
    this.redis.connect().catch(() => undefined);
    // The worker cannot work without its queues; the api and gateway keep answering and
    // writing (rate limits count in memory, audit goes straight to the chain, embedding is
    // deferred to the sweep), so for them Redis down is degraded, not unready.
    this.readiness.register(
      'redis',
      async () => {
        if (this.redis.status !== 'ready') return { ok: false, detail: `not connected (${this.redis.status})` };
        const answer = await this.redis.ping();
        return answer === 'PONG' ? { ok: true } : { ok: false, detail: `unexpected PING answer` };
      },
      { required: this.config.app === 'worker' },
    );
  }

  async onApplicationShutdown(): Promise<void> {
    await this.redis.quit().catch(() => this.redis.disconnect());
  }
}
