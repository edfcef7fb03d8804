import { errorFromResponse } from '../api/api-errors';
import { type CairnApi } from '../api/cairn-client';
import { type MemoryView } from './memory-cache.repository';
import { type OfflineStore } from './offline-store';

export interface FeedSyncReport {
  readonly project: string;
  /** Memories added or brought to their new version. */
  readonly updated: number;
  /** Tombstones applied (deleted, or no longer shared with this identity). */
  readonly removed: number;
  /** False when the page bound stopped it with more changes waiting (the next sync goes on from there). */
  readonly complete: boolean;
}

export interface FeedSyncOptions {
  /** Changes per request (the server allows up to 1,000). */
  readonly pageSize?: number;
  /** Requests per sync, so a first sync of a large project does not hold a start-up up. */
  readonly maxPages?: number;
}

/**
 * Brings the cache of `project` up to date from the change feed (`GET …/memories/changes`),
 * from the cursor it keeps: changed memories are cached at their new version (as feed items,
 * which give way first when the cache is full), tombstones remove every cached copy. The
 * cursor is saved after each page is applied, so an interrupted sync resumes without a gap.
 */
export async function syncChangeFeed(
  store: OfflineStore,
  api: CairnApi,
  project: string,
  options: FeedSyncOptions = {},
): Promise<FeedSyncReport> {
  const pageSize = options.pageSize ?? 500;
  const maxPages = options.maxPages ?? 20;
  let updated = 0;
  let removed = 0;
  for (let page = 0; page < maxPages; page += 1) {
    const since = store.saved.feedCursor(project)?.cursor;
    const { data, error, response } = await api.GET('/v1/projects/{project}/memories/changes', {
      params: { path: { project }, query: { limit: pageSize, ...(since ? { since } : {}) } },
    });
    if (!response.ok || !data) throw errorFromResponse(response, error);
    const memories: MemoryView[] = [];
    for (const item of data.items) {
      if ('memory' in item) {
        memories.push(item.memory);
      } else {
        store.memories.remove(item.id);
        removed += 1;
      }
    }
    store.memories.put(project, memories, 'feed');
    updated += memories.length;
    store.saved.saveFeedCursor(project, data.nextCursor);
    if (!data.hasMore) return { project, updated, removed, complete: true };
  }
  return { project, updated, removed, complete: false };
}
