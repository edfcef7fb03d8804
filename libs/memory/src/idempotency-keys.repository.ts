import { createHash } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { ConflictError } from '@cairn/common';
import { SNAPSHOT_EXAMPLE as EX, SqlSnapshot } from '@cairn/db';
import { TenantDb } from '@cairn/tenancy';
import { canonicalize } from 'json-canonicalize';

/** A client's idempotency key for one store, and the digest of what it stored under it. */
export interface IdempotencyClaim {
  readonly key: string;
  readonly digest: string;
}

/** How long a key answers repeats; the maintenance purge removes older ones. */
export const IDEMPOTENCY_KEY_HOURS = 24;

/** The digest a repeat must match: the validated input in canonical JSON (RFC 8785). */
export function payloadDigest(input: unknown): string {
  return createHash('sha256').update(canonicalize(input)).digest('hex');
}

/**
 * How a key is stored and looked up: its SHA-256 in hex. A client may put anything in a key, a
 * secret included, and the key is only ever compared (tenant migration 19 digested older rows).
 */
export function idempotencyKeyDigest(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

/**
 * `memory_idempotency_keys`: claimed inside the store's transaction, before the memory is
 * written. A concurrent repeat blocks on the key's primary key until the first transaction
 * ends, then either finds the key (and the memory it names) or, if that one rolled back,
 * claims it itself: a key stores at most one memory.
 */
@Injectable()
export class IdempotencyKeysRepository {
  constructor(private readonly db: TenantDb) {}

  /**
   * Claims the key for `memoryId`; undefined when claimed, else the id stored under it
   * earlier. A different payload under the same key is a 409: the client reused a key.
   */
  @SqlSnapshot(
    {
      name: 'a new key',
      params: [EX.projectId, EX.tokenId, { key: 'another-key', digest: EX.contentHash }, EX.newMemoryId],
    },
    {
      name: 'a key claimed before',
      params: [EX.projectId, EX.tokenId, { key: 'example-key', digest: EX.contentHash }, EX.newMemoryId],
    },
  )
  async claim(
    projectId: string,
    tokenId: string,
    claim: IdempotencyClaim,
    memoryId: string,
  ): Promise<string | undefined> {
    const key = idempotencyKeyDigest(claim.key);
    const inserted = await this.db.query<{ memory_id: string }>(
      `INSERT INTO memory_idempotency_keys (project_id, token_id, key, payload_digest, memory_id)
       VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING RETURNING memory_id`,
      [projectId, tokenId, key, claim.digest, memoryId],
    );
    if (inserted.length > 0) return undefined;
    // A statement of its own: under READ COMMITTED it sees the row the conflicting transaction committed.
    const [existing] = await this.db.query<{ memory_id: string; payload_digest: string }>(
      `SELECT memory_id, payload_digest FROM memory_idempotency_keys
        WHERE project_id = $1 AND token_id = $2 AND key = $3`,
      [projectId, tokenId, key],
    );
    if (!existing)
      throw new ConflictError('the idempotency key is being used by another request; retry', 'idempotency_key_busy');
    if (existing.payload_digest !== claim.digest) {
      throw new ConflictError(
        'this idempotency key was already used for a different memory; use a new key for a new memory',
        'idempotency_key_reused',
      );
    }
    return existing.memory_id;
  }

  /** Removes keys older than the window; the count removed. */
  @SqlSnapshot({ params: [EX.future] })
  async prune(before: Date): Promise<number> {
    const rows = await this.db.query<{ n: string }>(
      `WITH gone AS (DELETE FROM memory_idempotency_keys WHERE created_at < $1 RETURNING 1)
       SELECT count(*) AS n FROM gone`,
      [before],
    );
    return Number(rows[0]?.n ?? 0);
  }
}
