import { type Redis } from 'ioredis';

/** BullMQ's largest priority (2^21); a tag past it is clamped there (FIFO among those jobs). */
export const MAX_PRIORITY = 2 ** 21;

/**
 * The next tag of a tenant: one past the later of the tenant's last tag and the clock (the tag
 * of the latest bulk job a worker started). When no bulk job is waiting (the prioritized set is
 * empty) the tags mean nothing any more and start again from 1, which keeps them far below
 * BullMQ's limit. KEYS: the tags hash, the queue's prioritized set. ARGV: tenant field, limit.
 */
const NEXT_TAG = `
if redis.call('ZCARD', KEYS[2]) == 0 then redis.call('DEL', KEYS[1]) end
local clock = tonumber(redis.call('HGET', KEYS[1], 'clock') or '0')
local last = tonumber(redis.call('HGET', KEYS[1], ARGV[1]) or '0')
local tag = math.min(math.max(clock, last) + 1, tonumber(ARGV[2]))
redis.call('HSET', KEYS[1], ARGV[1], tag)
return tag`;

/** Moves the clock up to a started job's tag (never down). KEYS: the tags hash. ARGV: the tag. */
const ADVANCE_CLOCK = `
local clock = tonumber(redis.call('HGET', KEYS[1], 'clock') or '0')
if tonumber(ARGV[1]) > clock then redis.call('HSET', KEYS[1], 'clock', ARGV[1]) end
return 0`;

/**
 * Start-time fair queueing of one queue's bulk jobs between tenants, on BullMQ's own priorities
 * (the open-source edition has no per-tenant groups). Each bulk job's priority is a tag: one past
 * its tenant's previous tag, or past the clock (the tag of the latest bulk job started) if that
 * is later. Tags of different tenants therefore interleave: a tenant with 10,000 jobs queued
 * holds tags clock+1 … clock+10,000, and a tenant arriving with 5 jobs gets clock+1 … clock+5,
 * so its jobs run in turn with the first one's instead of after all of them. BullMQ runs lower
 * priorities first and equal ones in order of arrival; jobs without a priority (interactive
 * ones) run before any prioritized job.
 *
 * The bound: a bulk job tagged clock+k (its tenant had k−1 bulk jobs queued ahead of it) starts
 * after at most k+1 bulk jobs of each other tenant, whatever their backlogs (plus the interactive
 * jobs, which go first). Tags are advisory: a race between two enqueues, or a retried job that
 * kept an old tag, can only reorder work, never lose it.
 */
export class BulkFairShare {
  constructor(
    private readonly redis: Redis,
    /** A hash beside the queue's own keys, so obliterating the queue removes it too. */
    private readonly tagsKey: string,
    private readonly prioritizedKey: string,
  ) {}

  /** The priority for the next bulk job of `tenantId`. */
  async priorityFor(tenantId: string): Promise<number> {
    const tag = await this.redis.eval(NEXT_TAG, 2, this.tagsKey, this.prioritizedKey, `t:${tenantId}`, MAX_PRIORITY);
    return Number(tag);
  }

  /** A worker started a bulk job of this priority: later arrivals queue from there. */
  async started(priority: number): Promise<void> {
    await this.redis.eval(ADVANCE_CLOCK, 1, this.tagsKey, priority);
  }
}
