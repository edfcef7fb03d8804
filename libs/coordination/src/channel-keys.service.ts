import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { assertProjectAccess, type SessionPrincipal } from '@cairn/access';
import { BadRequestError, ForbiddenError } from '@cairn/common';
import { ProjectResolver } from '@cairn/projects';
import { TenantTransaction } from '@cairn/tenancy';
import { LRUCache } from 'lru-cache';
import { BroadcastsRepository, type StoredKey } from './broadcasts.repository';
import { ChannelKeyHasher, SCRYPT_PARAMS } from './channel-key-hasher.service';
import { channelKeySchema } from './contract/broadcast.dto';
import { type ChannelKeyState } from './contract/broadcast.types';

/** How long a verdict on a presented key is reused: repeated posts do not pay scrypt again. */
const VERDICT_TTL_MS = 60_000;
const VERDICT_ENTRIES = 10_000;

/** The one refusal for a missing, wrong or unverifiable key: nothing in it tells them apart. */
function refusal(): ForbiddenError {
  return new ForbiddenError("This project's channel needs its posting key to post", 'channel_key_invalid');
}

/**
 * The optional per-project posting key (issue 14 §3): stored only as an scrypt hash with its
 * salt and parameters, compared in constant time. Verdicts, right and wrong alike, are cached
 * for a minute under an HMAC of the presented key (its HMAC key random per process, so the
 * cache holds nothing that could be tested offline), bound to the project and to the stored
 * hash (a new key makes old verdicts unreachable). A wrong key is thus refused as a right one is
 * accepted: one derivation the first time, none while the verdict lasts, whatever its length.
 */
@Injectable()
export class ChannelKeys {
  private readonly cacheKey = randomBytes(32);
  private readonly verdicts = new LRUCache<string, Verdict>({ max: VERDICT_ENTRIES, ttl: VERDICT_TTL_MS });

  constructor(
    private readonly tx: TenantTransaction,
    private readonly projects: ProjectResolver,
    private readonly broadcasts: BroadcastsRepository,
    private readonly hasher: ChannelKeyHasher,
  ) {}

  async state(projectSlug: string, principal: SessionPrincipal): Promise<ChannelKeyState> {
    assertProjectAccess(principal, projectSlug);
    const key = await this.tx.run(async () => this.broadcasts.key((await this.projects.resolve(projectSlug)).id));
    return { keySet: key !== null, keySetAt: key?.setAt ?? null };
  }

  /** Sets (or replaces) the key; derived before the transaction, so no connection waits on scrypt. */
  async set(projectSlug: string, principal: SessionPrincipal, input: { channelKey: string }): Promise<ChannelKeyState> {
    assertProjectAccess(principal, projectSlug);
    // The REST body is validated already; checked again here because the minimum length is the point.
    const parsed = channelKeySchema.safeParse(input);
    if (!parsed.success) throw new BadRequestError(`Invalid channel key: ${parsed.error.issues[0]?.message}`);
    const key = parsed.data.channelKey;
    const salt = this.hasher.newSalt();
    const hash = await this.hasher.derive(key, salt);
    const setAt = await this.tx.run(async () => {
      const project = await this.projects.resolve(projectSlug);
      await this.broadcasts.lockChannel(project.id);
      return this.broadcasts.setKey(project.id, { hash, salt, params: { ...SCRYPT_PARAMS } });
    });
    return { keySet: true, keySetAt: setAt };
  }

  /** Clears the key: anyone allowed to post may then post without one. False when none was set. */
  async clear(projectSlug: string, principal: SessionPrincipal): Promise<boolean> {
    assertProjectAccess(principal, projectSlug);
    return this.tx.run(async () => {
      const project = await this.projects.resolve(projectSlug);
      await this.broadcasts.lockChannel(project.id);
      return this.broadcasts.clearKey(project.id);
    });
  }

  /** Throws `channel_key_invalid` unless the channel has no key or `presented` is it (deriving it if need be). */
  async check(projectId: string, stored: StoredKey | null, presented: string | undefined): Promise<void> {
    if (stored === null) return;
    if (presented === undefined || !(await this.verdict(projectId, stored, presented).pending)) throw refusal();
  }

  /**
   * The verdict without waiting: true (no key, or a cached right one), a thrown refusal (no key
   * presented, or a cached wrong one), or `'unknown'` when only a derivation can tell: the caller
   * then calls `check` outside its transaction, so no connection or lock waits on scrypt.
   */
  known(projectId: string, stored: StoredKey | null, presented: string | undefined): true | 'unknown' {
    if (stored === null) return true;
    if (presented === undefined) throw refusal();
    const cached = this.verdicts.get(this.idOf(projectId, stored, presented))?.value;
    if (cached === undefined) return 'unknown';
    if (!cached) throw refusal();
    return true;
  }

  private idOf(projectId: string, stored: StoredKey, presented: string): string {
    return createHmac('sha256', this.cacheKey)
      .update(projectId)
      .update('\0')
      .update(stored.hash)
      .update('\0')
      .update(presented, 'utf8')
      .digest('base64url');
  }

  private verdict(projectId: string, stored: StoredKey, presented: string): Verdict {
    const id = this.idOf(projectId, stored, presented);
    const cached = this.verdicts.get(id);
    if (cached) return cached;
    // Cached at once, so concurrent posts with the same key share one derivation.
    const verdict: Verdict = {
      pending: this.hasher.derive(presented, stored.salt, stored.params).then(
        (derived) => (verdict.value = derived.length === stored.hash.length && timingSafeEqual(derived, stored.hash)),
        () => {
          this.verdicts.delete(id);
          return false;
        },
      ),
    };
    this.verdicts.set(id, verdict);
    return verdict;
  }
}

/** A verdict on one presented key: settled (`value`) or still being derived. */
interface Verdict {
  readonly pending: Promise<boolean>;
  value?: boolean;
}
