import { type Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';

/**
 * A fixed-window budget of `points` per `durationSeconds`, counted in Redis so it holds across
 * every replica (one atomic script per key). If Redis is unreachable the replica counts in
 * memory at once (the library's insurance limiter) rather than waiting on the client's retries,
 * failing the request or letting it through unbounded.
 */
export function redisRateLimiter(
  redis: Redis,
  options: { readonly keyPrefix: string; readonly points: number; readonly durationSeconds: number },
): RateLimiterRedis {
  const { keyPrefix, points, durationSeconds } = options;
  return new RateLimiterRedis({
    storeClient: redis,
    keyPrefix,
    points,
    duration: durationSeconds,
    rejectIfRedisNotReady: true,
    insuranceLimiter: new RateLimiterMemory({ points, duration: durationSeconds }),
  });
}

/**
 * Seconds until a refused budget has room again (at least 1), or undefined when `reason` is not
 * a refusal (an error of the limiter itself, which the caller rethrows).
 */
export function retryAfterSeconds(reason: unknown): number | undefined {
  if (!(reason instanceof RateLimiterRes)) return undefined;
  return Math.max(1, Math.ceil(reason.msBeforeNext / 1000));
}
