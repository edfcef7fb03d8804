import { Inject, Injectable } from '@nestjs/common';
import { type SessionPrincipal } from '@cairn/access';
import { CAIRN_CONFIG, type CairnConfig } from '@cairn/config';
import { REDIS } from '@cairn/redis';
import { type Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';

export interface RateLimitRefusal {
  readonly scope: 'token' | 'tenant';
  readonly limit: number;
  readonly retryAfterSeconds: number;
}

const DURATION_SECONDS = 60;

/**
 * Both budgets in one script, so a request costs one Redis round trip instead of two. Per
 * key it does exactly what rate-limiter-flexible's RateLimiterRedis script does (a fixed
 * window: created with the window's TTL, incremented, TTL read back), so keys, counts and
 * expiry are the same as before. Returns {consumed, ttlMs} per key, in KEYS order.
 */
const CONSUME_SCRIPT = `
local out = {}
for i, key in ipairs(KEYS) do
  redis.call('set', key, 0, 'EX', ARGV[1], 'NX')
  local consumed = redis.call('incrby', key, 1)
  local ttl = redis.call('pttl', key)
  if ttl == -1 then
    redis.call('expire', key, ARGV[1])
    ttl = 1000 * ARGV[1]
  end
  out[#out + 1] = consumed
  out[#out + 1] = ttl
end
return out`;

interface ScriptedRedis extends Redis {
  cairnMcpRateLimit(tokenKey: string, tenantKey: string, seconds: number): Promise<number[]>;
}

/**
 * Per-token and per-tenant request budgets per minute, counted in Redis so they hold across
 * every gateway replica (one atomic script for both keys). If Redis is unreachable each
 * replica falls back to counting in memory rather than failing requests or letting them
 * through unbounded.
 */
@Injectable()
export class McpRateLimits {
  private readonly redis: ScriptedRedis;
  private readonly prefix: string;
  private readonly insurance: { token: RateLimiterMemory; tenant: RateLimiterMemory };

  constructor(
    @Inject(CAIRN_CONFIG) private readonly config: CairnConfig,
    @Inject(REDIS) redis: Redis,
  ) {
    // ioredis sends it by EVALSHA, loading the script on first use or after a Redis restart.
    if (!('cairnMcpRateLimit' in redis))
      redis.defineCommand('cairnMcpRateLimit', { numberOfKeys: 2, lua: CONSUME_SCRIPT });
    this.redis = redis as ScriptedRedis;
    this.prefix = `${config.queues.prefix}:ratelimit:mcp`;
    const memory = (points: number) => new RateLimiterMemory({ points, duration: DURATION_SECONDS });
    this.insurance = {
      token: memory(config.rateLimits.tokenPerMinute),
      tenant: memory(config.rateLimits.tenantPerMinute),
    };
  }

  /** Spends one request of each budget; the refusal says which budget ran out and for how long. */
  async consume(principal: SessionPrincipal): Promise<RateLimitRefusal | undefined> {
    const { tokenPerMinute, tenantPerMinute } = this.config.rateLimits;
    const counts = await this.consumeInRedis(principal);
    if (!counts) return this.consumeInMemory(principal);
    const [token, tokenTtl, tenant, tenantTtl] = counts;
    if (token > tokenPerMinute) return refusal('token', tokenPerMinute, tokenTtl);
    if (tenant > tenantPerMinute) return refusal('tenant', tenantPerMinute, tenantTtl);
    return undefined;
  }

  /** Undefined when Redis is not connected or the script failed: the caller counts in memory. */
  private async consumeInRedis(principal: SessionPrincipal): Promise<number[] | undefined> {
    if (this.redis.status !== 'ready') return undefined;
    try {
      const result = await this.redis.cairnMcpRateLimit(
        `${this.prefix}:token:${principal.tokenId}`,
        `${this.prefix}:tenant:${principal.tenant.id}`,
        DURATION_SECONDS,
      );
      return result.length === 4 ? result.map(Number) : undefined;
    } catch {
      return undefined;
    }
  }

  private async consumeInMemory(principal: SessionPrincipal): Promise<RateLimitRefusal | undefined> {
    const [token, tenant] = await Promise.allSettled([
      this.insurance.token.consume(principal.tokenId),
      this.insurance.tenant.consume(principal.tenant.id),
    ]);
    if (token.status === 'rejected') return memoryRefusal('token', this.config.rateLimits.tokenPerMinute, token.reason);
    if (tenant.status === 'rejected') {
      return memoryRefusal('tenant', this.config.rateLimits.tenantPerMinute, tenant.reason);
    }
    return undefined;
  }
}

function refusal(scope: 'token' | 'tenant', limit: number, ttlMs: number): RateLimitRefusal {
  return { scope, limit, retryAfterSeconds: Math.max(1, Math.ceil(ttlMs / 1000)) };
}

function memoryRefusal(scope: 'token' | 'tenant', limit: number, reason: unknown): RateLimitRefusal {
  if (!(reason instanceof RateLimiterRes)) throw reason;
  return refusal(scope, limit, reason.msBeforeNext);
}
