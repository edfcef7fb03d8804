import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { CAIRN_CONFIG, type CairnConfig } from '@cairn/config';
import { REDIS } from '@cairn/redis';
import { type Redis } from 'ioredis';
import { type AuditOutcome } from './platform-audit.repository';
import { type TenantAuditEntry } from './tenant-audit-log.repository';

/** An entry as it is queued: its time fixed when it happened, not when it reaches the chain. */
export type StampedAuditEntry = TenantAuditEntry & { readonly at: Date };

export interface QueuedAuditEntry {
  /** The stream entry id: increasing in the order entries were queued, across replicas. */
  readonly id: string;
  readonly schema: string;
  /** Undefined when the stored fields cannot be read back (never written by this code). */
  readonly entry: StampedAuditEntry | undefined;
}

/** Compare-and-delete: a drainer releases only the lock it still holds. */
const RELEASE_LOCK = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0`;

/**
 * The durable queue between an answered tool call and its tenant's audit chain: one Redis
 * stream for every replica (Redis runs with AOF, as for the job queues), appended before the
 * call's answer is sent and drained in stream order by whichever replica holds the drain lock.
 * Entries leave the stream only once written to the chain.
 */
@Injectable()
export class AuditQueue {
  private readonly stream: string;
  private readonly lockKey: string;

  constructor(
    @Inject(CAIRN_CONFIG) config: CairnConfig,
    @Inject(REDIS) private readonly redis: Redis,
  ) {
    this.stream = `${config.queues.prefix}:audit:tenant-log`;
    this.lockKey = `${this.stream}:drain-lock`;
  }

  /** False while Redis is unreachable: callers write directly rather than wait out the client's retries. */
  ready(): boolean {
    return this.redis.status === 'ready';
  }

  /** Resolves with the entry's id once Redis has it. */
  async add(schema: string, entry: StampedAuditEntry): Promise<string> {
    const id = await this.redis.xadd(this.stream, '*', 'schema', schema, 'entry', JSON.stringify(entry));
    if (!id) throw new Error('the audit queue did not accept the entry');
    return id;
  }

  /** Up to `count` entries queued after `afterId` (from the oldest when undefined), oldest first. */
  async read(afterId: string | undefined, count: number): Promise<QueuedAuditEntry[]> {
    const raw = await this.redis.xrange(this.stream, afterId === undefined ? '-' : `(${afterId}`, '+', 'COUNT', count);
    return raw.map(([id, fields]) => toQueued(id, fields));
  }

  /** Removes entries that are in the chain (or can never be: their tenant is gone). */
  async remove(ids: readonly string[]): Promise<void> {
    if (ids.length > 0) await this.redis.xdel(this.stream, ...ids);
  }

  /** How many entries wait (for tests and diagnostics). */
  length(): Promise<number> {
    return this.redis.xlen(this.stream);
  }

  /**
   * The drain lock, so one replica at a time walks the queue: a release function, or undefined
   * when another replica holds it. It expires after `ttlMs` should its holder die; a second
   * drainer meanwhile would still write each entry once (the chain skips known queue ids).
   */
  async lock(ttlMs: number): Promise<(() => Promise<void>) | undefined> {
    const token = randomUUID();
    const taken = await this.redis.set(this.lockKey, token, 'PX', ttlMs, 'NX');
    if (taken !== 'OK') return undefined;
    return async () => {
      await this.redis.eval(RELEASE_LOCK, 1, this.lockKey, token);
    };
  }
}

interface StoredEntry {
  at: string;
  actor: string;
  action: string;
  target: string | null;
  outcome: AuditOutcome;
  status: number | null;
  requestId: string | null;
  details?: Record<string, unknown>;
}

function toQueued(id: string, fields: string[]): QueuedAuditEntry {
  const values = new Map<string, string>();
  for (let i = 0; i + 1 < fields.length; i += 2) values.set(fields[i], fields[i + 1]);
  const schema = values.get('schema') ?? '';
  try {
    const stored = JSON.parse(values.get('entry') ?? '') as StoredEntry;
    const at = new Date(stored.at);
    if (!schema || Number.isNaN(at.getTime()) || typeof stored.action !== 'string') {
      return { id, schema, entry: undefined };
    }
    return { id, schema, entry: { ...stored, at } };
  } catch {
    return { id, schema, entry: undefined };
  }
}
