import { Inject, Injectable } from '@nestjs/common';
import { type SessionPrincipal } from '@cairn/access';
import { RateLimitedError } from '@cairn/common';
import { CAIRN_CONFIG, type CairnConfig } from '@cairn/config';
import { REDIS, redisRateLimiter, retryAfterSeconds } from '@cairn/redis';
import { type Redis } from 'ioredis';
import { type RateLimiterRedis } from 'rate-limiter-flexible';

export interface RateLimitRefusal {
  readonly scope: 'token' | 'tenant';
  readonly limit: number;
  readonly retryAfterSeconds: number;
  /** The one wording both adapters send (REST error message, JSON-RPC error message). */
  readonly message: string;
}

/**
 * Per-token and per-tenant request budgets per minute, for every way in: the access guard
 * spends them for each authenticated REST request, the MCP gateway for each MCP request, and
 * both spend the same budgets (one count per token and per tenant, whichever door). Counted
 * in Redis so they hold across every replica (one atomic script per key; the two run
 * concurrently on one connection, so a request waits for about one round trip). If Redis is
 * unreachable each replica falls back to counting in memory (the library's insurance
 * limiter) rather than failing requests or letting them through unbounded.
 */
@Injectable()
export class RateLimits {
  private readonly perToken: RateLimiterRedis;
  private readonly perTenant: RateLimiterRedis;

  constructor(
    @Inject(CAIRN_CONFIG) private readonly config: CairnConfig,
    @Inject(REDIS) redis: Redis,
  ) {
    const limiter = (scope: string, points: number) =>
      redisRateLimiter(redis, { keyPrefix: `${config.queues.prefix}:ratelimit:${scope}`, points, durationSeconds: 60 });
    this.perToken = limiter('token', config.rateLimits.tokenPerMinute);
    this.perTenant = limiter('tenant', config.rateLimits.tenantPerMinute);
  }

  /**
   * Spends `requests` (one, or the messages of a JSON-RPC batch) of each budget; the refusal
   * says which budget ran out and for how long.
   */
  async consume(principal: SessionPrincipal, requests = 1): Promise<RateLimitRefusal | undefined> {
    const [token, tenant] = await Promise.allSettled([
      this.perToken.consume(principal.tokenId, requests),
      this.perTenant.consume(principal.tenant.id, requests),
    ]);
    if (token.status === 'rejected') return this.refusal('token', this.config.rateLimits.tokenPerMinute, token.reason);
    if (tenant.status === 'rejected') {
      return this.refusal('tenant', this.config.rateLimits.tenantPerMinute, tenant.reason);
    }
    return undefined;
  }

  /** consume() for callers that answer with the global error filter: a 429 with Retry-After. */
  async enforce(principal: SessionPrincipal): Promise<void> {
    const refused = await this.consume(principal);
    if (refused) {
      throw new RateLimitedError(refused.message, refused.retryAfterSeconds, {
        scope: refused.scope,
        retryAfterSeconds: refused.retryAfterSeconds,
      });
    }
  }

  private refusal(scope: 'token' | 'tenant', limit: number, reason: unknown): RateLimitRefusal {
    const retryAfter = retryAfterSeconds(reason);
    if (retryAfter === undefined) throw reason;
    return {
      scope,
      limit,
      retryAfterSeconds: retryAfter,
      message: `Rate limit exceeded: ${limit} requests per minute per ${scope}; retry in ${retryAfter} s`,
    };
  }
}
