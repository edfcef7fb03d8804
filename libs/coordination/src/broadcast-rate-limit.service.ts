import { Inject, Injectable } from '@nestjs/common';
import { agentKeyOf, type SessionPrincipal } from '@cairn/access';
import { RateLimitedError } from '@cairn/common';
import { CAIRN_CONFIG, type CairnConfig } from '@cairn/config';
import { REDIS, redisRateLimiter, retryAfterSeconds } from '@cairn/redis';
import { type Redis } from 'ioredis';
import { type RateLimiterRedis } from 'rate-limiter-flexible';

/**
 * Posts per agent per minute (BROADCAST_RATE_PER_MINUTE), on top of the request budgets: the
 * channel is read by every agent of a project, so one agent must not flood it. Counted in
 * Redis across replicas by the same limiter as the request budgets (in memory per replica while
 * Redis is down). Spent before the channel key is checked, so wrong keys cost scrypt at most
 * this often per agent.
 */
@Injectable()
export class BroadcastRateLimit {
  private readonly limiter: RateLimiterRedis;
  private readonly perMinute: number;

  constructor(@Inject(CAIRN_CONFIG) config: CairnConfig, @Inject(REDIS) redis: Redis) {
    this.perMinute = config.rateLimits.broadcastPerMinute;
    this.limiter = redisRateLimiter(redis, {
      keyPrefix: `${config.queues.prefix}:ratelimit:broadcast`,
      points: this.perMinute,
      durationSeconds: 60,
    });
  }

  /** Spends one post of the caller's budget; a 429 with Retry-After when it is spent. */
  async spend(principal: SessionPrincipal): Promise<void> {
    try {
      await this.limiter.consume(`${principal.tenant.id}:${agentKeyOf(principal)}`);
    } catch (reason) {
      const retryAfter = retryAfterSeconds(reason);
      if (retryAfter === undefined) throw reason;
      throw new RateLimitedError(
        `Broadcast rate limit: ${this.perMinute} messages per minute per agent; retry in ${retryAfter} s`,
        retryAfter,
        { scope: 'broadcast', retryAfterSeconds: retryAfter },
      );
    }
  }
}
