import { LRUCache } from 'lru-cache';

/** How long an unwrapped data key stays in memory after it was unwrapped (not extended by use). */
export const DATA_KEY_TTL_MS = 5 * 60_000;
/** Unwrapped data keys held at once, across tenants and versions. */
export const DATA_KEY_CACHE_MAX = 1_000;

/**
 * Unwrapped data keys, bounded in count and age. A key leaving the cache (expired, evicted,
 * cleared) is overwritten with zeros, so plain key material does not outlive its entry. Callers
 * use a key synchronously right after `get` and never keep it across an await: a wiped buffer is
 * never used.
 */
export class DataKeyCache {
  private readonly keys: LRUCache<string, Buffer>;

  constructor(options: { max?: number; ttlMs?: number } = {}) {
    this.keys = new LRUCache<string, Buffer>({
      max: options.max ?? DATA_KEY_CACHE_MAX,
      ttl: options.ttlMs ?? DATA_KEY_TTL_MS,
      // Expired keys are wiped on time, not when next touched (the timers do not hold the process open).
      ttlAutopurge: true,
      dispose: (key) => key.fill(0),
    });
  }

  get(tenantId: string, version: number): Buffer | undefined {
    return this.keys.get(`${tenantId}:${version}`);
  }

  /** Takes ownership of `key`: it is wiped when it leaves the cache. */
  set(tenantId: string, version: number, key: Buffer): void {
    const id = `${tenantId}:${version}`;
    // Replacing an entry would wipe the buffer a racing caller just stored; keep the first.
    if (this.keys.has(id)) key.fill(0);
    else this.keys.set(id, key);
  }

  get size(): number {
    return this.keys.size;
  }

  /** Wipes and drops every key (module shutdown). */
  clear(): void {
    this.keys.clear();
  }
}
