export { REDIS, RedisModule } from './redis.module';
export { redisRateLimiter, retryAfterSeconds } from './rate-limiter';
