import { type TokenLookup } from './tokens.repository';

/** What a change notice names: one token, every token of a user, or every token of a tenant. */
export type AuthChange = { readonly kind: 'token' | 'user' | 'tenant'; readonly id: string };

const MAX_ENTRIES = 10_000;

interface Entry {
  readonly lookup: TokenLookup;
  readonly storedAt: number;
}

/**
 * Token lookups remembered by token hash, so an authenticated request costs no database round
 * trip. Only as trustworthy as the change notices that empty it (AuthChangeListener): it
 * answers nothing unless the listener has proven, recently, that notices reach it, and it
 * forgets everything whenever that proof lapses. Each entry also ages out after `ttlMs`, the
 * bound on staleness should every safeguard fail at once.
 *
 * Expiry needs no notice: the verifier evaluates the remembered row against the clock on
 * every request.
 */
export class TokenCache {
  private readonly entries = new Map<string, Entry>();
  /** Bumped by every forget or clear; a lookup that straddled one is not stored (it may predate the change). */
  private generation = 0;
  private trustedUntil = 0;

  constructor(
    private readonly ttlMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Whether the cache may answer now: on, and the listener's last proof still current. */
  get trusted(): boolean {
    return this.ttlMs > 0 && this.now() < this.trustedUntil;
  }

  /** The lookup's starting point: pass it back to `store`. */
  get mark(): number {
    return this.generation;
  }

  get(hash: Buffer): TokenLookup | undefined {
    if (!this.trusted) return undefined;
    const key = hash.toString('base64');
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (this.now() - entry.storedAt >= this.ttlMs) {
      this.entries.delete(key);
      return undefined;
    }
    return entry.lookup;
  }

  /** Remembers a lookup made since `mark`, unless something changed meanwhile. */
  store(hash: Buffer, lookup: TokenLookup, mark: number): void {
    if (!this.trusted || mark !== this.generation) return;
    if (this.entries.size >= MAX_ENTRIES) {
      // Oldest first: a Map iterates in insertion order.
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    this.entries.set(hash.toString('base64'), { lookup, storedAt: this.now() });
  }

  /** Drops every entry a change touches. */
  forget(change: AuthChange): void {
    this.generation++;
    for (const [key, { lookup }] of this.entries) {
      const touched =
        change.kind === 'token'
          ? lookup.id === change.id
          : change.kind === 'user'
            ? lookup.userId === change.id
            : lookup.tenantId === change.id;
      if (touched) this.entries.delete(key);
    }
  }

  /** The listener proved notices arrive; the cache may answer until `until`. */
  trustUntil(until: number): void {
    this.trustedUntil = until;
  }

  /** Notices may have been missed: forget everything and answer nothing until proven again. */
  distrust(): void {
    this.generation++;
    this.trustedUntil = 0;
    this.entries.clear();
  }

  get size(): number {
    return this.entries.size;
  }
}

/** Parses a notice payload (`token:<uuid>`); anything else (probes, garbage) is undefined. */
export function parseAuthChange(payload: string | undefined): AuthChange | undefined {
  const match = /^(token|user|tenant):([0-9a-f-]{36})$/i.exec(payload ?? '');
  if (!match) return undefined;
  return { kind: match[1].toLowerCase() as AuthChange['kind'], id: match[2].toLowerCase() };
}
