import { type CairnConfig } from '@cairn/config';
import { Redis, type RedisOptions } from 'ioredis';

/**
 * Producers fail fast when Redis is down (a write must not hang on its follow-up job);
 * consumers wait forever, as BullMQ requires of workers (`maxRetriesPerRequest: null`).
 */
export function createBullConnection(config: CairnConfig, role: 'producer' | 'consumer'): Redis {
  const options: RedisOptions = {
    connectionName: `cairn-${config.app}-${role}`,
    retryStrategy: (attempt) => Math.min(attempt * 200, 5_000),
    disconnectTimeout: 200,
    ...(role === 'producer'
      ? { maxRetriesPerRequest: 1, enableOfflineQueue: false, lazyConnect: true }
      : { maxRetriesPerRequest: null }),
  };
  const connection = new Redis(config.redis.url, options);
  connection.on('error', () => undefined);
  if (role === 'producer') connection.connect().catch(() => undefined);
  return connection;
}
