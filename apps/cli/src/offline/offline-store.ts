import { credentialDigest, IdentityRepository, type StoreIdentity, type WhoamiView } from './identity.repository';
import { DEFAULT_MEMORIES_PER_PROJECT, MemoryCacheRepository } from './memory-cache.repository';
import { ReplayLockRepository } from './replay-lock.repository';
import { SavedAnswersRepository } from './saved-answers.repository';
import { type DatabaseSync } from './sqlite';
import { openStoreDatabase } from './store-database';
import { DEFAULT_QUEUE_MAX, WriteQueueRepository } from './write-queue.repository';

export interface OpenStoreOptions {
  /** The user's cache directory (`cliPaths().cacheDir`); the file is `<cacheDir>/offline.sqlite`. */
  readonly cacheDir: string;
  /** The REST API base the token belongs to. */
  readonly server: URL;
  /** The session token; only a digest of it is kept. */
  readonly token: string;
  /**
   * Asks the server who the token is (`GET /v1/whoami`). Called only for a token this cache has
   * not seen yet, or with `refresh`; a hook that knows its token opens the store without a request.
   */
  readonly whoami?: () => Promise<WhoamiView>;
  /** Ask whoami even for a known token (the bridge does at start, when online). */
  readonly refresh?: boolean;
  /** The queue's cap (writes held); default 500. */
  readonly queueMax?: number;
  /** Memories kept per project before the least recently used go; default 2,000. */
  readonly memoriesPerProject?: number;
}

/** The store cannot be used for this token: it was never seen online, and the server cannot say who it is now. */
export class UnknownIdentityError extends Error {
  readonly code = 'offline_identity_unknown';
  constructor(cause?: unknown) {
    super(
      'this token has not been used with the server before, and the server cannot be asked who it is now: ' +
        'the offline cache starts after one successful connection',
      { cause },
    );
    this.name = 'UnknownIdentityError';
  }
}

/**
 * The local cache and write queue of one identity (a token of a tenant on a server), in the
 * SQLite file it shares with every other `cairn` process of this user. Synchronous: node:sqlite
 * is, and each call is a millisecond or less. Close it when done (hooks: before exiting).
 */
export class OfflineStore {
  readonly memories: MemoryCacheRepository;
  readonly saved: SavedAnswersRepository;
  readonly queue: WriteQueueRepository;
  readonly replayLock: ReplayLockRepository;
  private readonly identities: IdentityRepository;

  constructor(
    private readonly db: DatabaseSync,
    private currentIdentity: StoreIdentity,
    readonly queueMax: number,
    memoriesPerProject: number,
  ) {
    this.identities = new IdentityRepository(db);
    this.memories = new MemoryCacheRepository(db, currentIdentity.id, memoriesPerProject);
    this.saved = new SavedAnswersRepository(db, currentIdentity.id);
    this.queue = new WriteQueueRepository(db, currentIdentity.id);
    this.replayLock = new ReplayLockRepository(db, currentIdentity.id);
  }

  get identity(): StoreIdentity {
    return this.currentIdentity;
  }

  /** Other identities (earlier tokens) that still hold writes in this file, so none is stranded unseen. */
  otherQueues(): { identity: StoreIdentity; writes: number }[] {
    return this.identities.otherQueues(this.currentIdentity.id);
  }

  /** The project a write or search names, else the token's default project (as the gateway resolves it). */
  projectOf(named: string | undefined): string | undefined {
    return named ?? this.currentIdentity.defaultProject ?? undefined;
  }

  close(): void {
    if (this.db.isOpen) this.db.close();
  }
}

/**
 * Opens the store for a token. A token seen before is found by its digest with no request (the
 * path hooks take on every prompt); a new one is identified once with `whoami`. Throws
 * UnknownIdentityError when a new token cannot be identified (server away).
 */
export async function openOfflineStore(options: OpenStoreOptions): Promise<OfflineStore> {
  const db = openStoreDatabase(options.cacheDir);
  try {
    const identities = new IdentityRepository(db);
    const digest = credentialDigest(options.server, options.token);
    let identity = identities.findByCredential(digest);
    if (!identity || options.refresh) {
      let answer: WhoamiView | undefined;
      try {
        if (!options.whoami) throw new Error('no way to ask the server');
        answer = await options.whoami();
      } catch (error) {
        // A known token stays usable offline; a new one cannot be keyed without the server.
        if (!identity) throw new UnknownIdentityError(error);
      }
      if (answer) identity = identities.remember(options.server, digest, answer);
    }
    if (!identity) throw new UnknownIdentityError();
    return new OfflineStore(
      db,
      identity,
      options.queueMax ?? DEFAULT_QUEUE_MAX,
      options.memoriesPerProject ?? DEFAULT_MEMORIES_PER_PROJECT,
    );
  } catch (error) {
    db.close();
    throw error;
  }
}
