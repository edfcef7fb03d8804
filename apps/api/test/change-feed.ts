import { type TestClient } from '@cairn/testing';
import { memoriesUrl } from './memory-fixtures';

/** The change feed over REST (`GET …/memories/changes`), for the suites that follow it. */

export type ChangeItem =
  | { memory: { id: string; content: string } }
  | { id: string; deleted: true; changedAt: string; reason: 'deleted' | 'unshared' };

export const itemId = (item: ChangeItem) => ('memory' in item ? item.memory.id : item.id);

export async function changes(client: TestClient, project: string, since?: string, limit?: number) {
  const query = new URLSearchParams();
  if (since) query.set('since', since);
  if (limit) query.set('limit', String(limit));
  const response = await client.get(memoriesUrl(project, `/changes?${query.toString()}`));
  if (response.status !== 200) throw new Error(`changes: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body as { items: ChangeItem[]; nextCursor: string; hasMore: boolean };
}

/** Follows the feed until nothing more is ready; returns what came and where to resume. */
export async function drain(client: TestClient, project: string, since?: string, limit = 1000) {
  const items: ChangeItem[] = [];
  let cursor = since;
  for (;;) {
    const page = await changes(client, project, cursor, limit);
    items.push(...page.items);
    cursor = page.nextCursor;
    if (!page.hasMore) return { items, cursor };
  }
}

/** Retries until `check` passes: other test files' short transactions may hold the horizon for a moment. */
export async function eventually<T>(
  probe: () => Promise<T>,
  check: (value: T) => boolean,
  timeoutMs = 5_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (check(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * Drains from `since` until at least `count` items came. The horizon is cluster-wide: a
 * transaction another test file has open holds back fresh changes (delayed, never lost).
 */
export function drainUntil(client: TestClient, project: string, since: string | undefined, count: number) {
  return eventually(
    () => drain(client, project, since),
    (result) => result.items.length >= count,
    10_000,
  );
}

/** A cursor past the given rows, once the feed has delivered them (see drainUntil). */
export async function cursorAfter(client: TestClient, project: string, ids: readonly string[]) {
  const result = await eventually(
    () => drain(client, project),
    (drained) => ids.every((id) => drained.items.some((item) => itemId(item) === id)),
    10_000,
  );
  return result.cursor;
}
