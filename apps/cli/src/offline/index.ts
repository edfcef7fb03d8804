/**
 * The offline store of the `cairn` command, shared by the bridge (`cairn mcp`), `cairn sync` /
 * `cairn queue` and the Claude Code hooks (docs/cli.md "Offline"). One SQLite file per user,
 * everything in it per identity (a token of a tenant on a server). Opening is a file open and
 * one indexed read for a token seen before, so a hook can afford it on every prompt; close the
 * store before the process exits. Nothing here loads openapi-fetch (or Node's fetch) at run
 * time: a hook replays the queue through its own node:http client (`RestTransport`).
 */
export { openStoreFor, type OpenStoreForOptions } from './open-store';
export { openOfflineStore, OfflineStore, type OpenStoreOptions, UnknownIdentityError } from './offline-store';
export { type StoreIdentity, type WhoamiView } from './identity.repository';
export {
  type CacheOrigin,
  type CacheSearchFilters,
  type CacheSearchResult,
  type CachedMemory,
  type MemoryView,
} from './memory-cache.repository';
export { type SavedBriefing, type SavedToolCatalog } from './saved-answers.repository';
export { DEFAULT_QUEUE_MAX, QueueFullError, queueMaxOf } from './write-queue.repository';
export { describeWrite, type QueuedWrite, type QueueStatus, type WriteOperation } from './write-operations';
export { restCallOf, type WriteToSend } from './write-calls';
export { apiTransport, type RestAnswer, type RestCall, type RestTransport } from './rest-call';
export { replayQueue, type ReplayOptions, type ReplayedWrite, type ReplayReport } from './write-replay';
export { syncChangeFeed, type FeedSyncReport } from './change-feed';
export { isUnreachable } from './unreachable';
