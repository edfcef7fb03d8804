export { REDIS, RedisModule } from './redis.module';
