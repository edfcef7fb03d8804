import { Inject, Injectable } from '@nestjs/common';
import { RateLimitedError } from '@cairn/common';
import { CAIRN_CONFIG, type CairnConfig } from '@cairn/config';
import { REDIS, redisRateLimiter } from '@cairn/redis';
import { type Redis } from 'ioredis';
import { type RateLimiterRedis, type RateLimiterRes } from 'rate-limiter-flexible';

/**
 * Failed sign-ins counted per account (tenant and email as typed, so unknown emails are
 * counted like known ones and the answer tells nothing) and per client address, in Redis so
 * the count holds across replicas. Only failures count; a success clears the account's count.
 */
@Injectable()
export class LoginThrottle {
  private readonly perAccount: RateLimiterRedis;
  private readonly perIp: RateLimiterRedis;

  constructor(
    @Inject(CAIRN_CONFIG) private readonly config: CairnConfig,
    @Inject(REDIS) redis: Redis,
  ) {
    const { accountAttempts, ipAttempts, attemptWindowSeconds } = config.accounts;
    const limiter = (scope: string, points: number) =>
      redisRateLimiter(redis, {
        keyPrefix: `${config.queues.prefix}:login:${scope}`,
        points,
        durationSeconds: attemptWindowSeconds,
      });
    this.perAccount = limiter('account', accountAttempts);
    this.perIp = limiter('ip', ipAttempts);
  }

  /** 429 with Retry-After when either count is spent; checked before the password is. */
  async assertAllowed(accountKey: string | undefined, ip: string): Promise<void> {
    const [account, address] = await Promise.all([
      accountKey === undefined ? Promise.resolve(null) : this.perAccount.get(accountKey),
      this.perIp.get(ip),
    ]);
    const { accountAttempts, ipAttempts } = this.config.accounts;
    const blocked = [exhausted(account, accountAttempts, 'account'), exhausted(address, ipAttempts, 'address')].find(
      (refusal) => refusal !== undefined,
    );
    if (blocked) {
      throw new RateLimitedError(
        `Too many failed sign-ins for this ${blocked.scope}; retry in ${blocked.retryAfter} s`,
        blocked.retryAfter,
        { scope: blocked.scope, retryAfterSeconds: blocked.retryAfter },
      );
    }
  }

  async recordFailure(accountKey: string | undefined, ip: string): Promise<void> {
    // A spent budget refuses the consume; the refusal is the point, not an error.
    await Promise.allSettled([
      accountKey === undefined ? Promise.resolve() : this.perAccount.consume(accountKey),
      this.perIp.consume(ip),
    ]);
  }

  async recordSuccess(accountKey: string): Promise<void> {
    await this.perAccount.delete(accountKey).catch(() => false);
  }
}

function exhausted(
  state: RateLimiterRes | null,
  points: number,
  scope: 'account' | 'address',
): { scope: string; retryAfter: number } | undefined {
  if (!state || state.consumedPoints < points) return undefined;
  return { scope, retryAfter: Math.max(1, Math.ceil(state.msBeforeNext / 1000)) };
}
