import { randomUUID } from 'node:crypto';
import { type TestClient } from '@cairn/testing';
import { type ApiHarness, startApi } from './api-harness';
import { type ChangeItem, changes, drain, itemId } from './change-feed';
import { memoriesUrl, type MemoryWorld, memoryWorld, store } from './memory-fixtures';

/**
 * Grants in the change feed (tenant migration 18). A share changes what its grantee sees without
 * changing the memory, so a client that syncs through the feed must still hear of it: a memory
 * shared with it arrives, one unshared (directly, by removing a rule, or by taking the rule's tag
 * off) arrives as a tombstone with reason `unshared`, and nobody else hears of either.
 */
describe('memory sharing in the change feed (REST)', () => {
  let api: ApiHarness;
  let w: MemoryWorld;

  beforeAll(async () => {
    api = await startApi();
    w = await memoryWorld(api);
  });
  afterAll(() => api.close());

  const base = () => `/v1/projects/${w.project}`;
  const alicesPrivate = async (extra: Record<string, unknown> = {}) =>
    (await store(w.agent, w.project, { content: `Alice's private note ${randomUUID()}`, scope: 'private', ...extra }))
      .memory.id;
  const share = async (id: string, agentId = 'cursor:bob') => {
    const response = await w.agent.post(`${base()}/memories/${id}/shares`, { agentId });
    expect(response.status).toBe(201);
    return response.body.id as string;
  };
  const unshare = async (shareId: string) =>
    expect((await w.agent.delete(`${base()}/shares/${shareId}`)).status).toBe(204);
  /** Project memories of Alice's: once one is in a feed, everything committed before it is too. */
  const markers = new Set<string>();
  const marker = async () => {
    const id = (await store(w.agent, w.project, { content: `Marker ${randomUUID()}` })).memory.id;
    markers.add(id);
    return id;
  };
  /**
   * Follows `client`'s feed from `cursor` until `until` has come; everything that came before it.
   * The horizon is cluster-wide, so another test file's open transaction can hold fresh changes
   * back for a while (delayed, never lost): poll for up to 20 s.
   */
  const follow = async (client: TestClient, cursor: string, until: string) => {
    let items: ChangeItem[] = [];
    let next = cursor;
    const deadline = Date.now() + 20_000;
    while (!items.some((item) => itemId(item) === until) && Date.now() < deadline) {
      const more = await drain(client, w.project, next);
      items = [...items, ...more.items];
      next = more.cursor;
      if (!items.some((item) => itemId(item) === until)) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(items.map(itemId)).toContain(until);
    return { items: items.filter((item) => !markers.has(itemId(item))), cursor: next };
  };
  const start = async (client: TestClient) => follow(client, (await drain(client, w.project)).cursor, await marker());
  const memoryItem = (id: string) => ({ memory: expect.objectContaining({ id, scope: 'private' }) });
  const unshared = (id: string) => ({ id, deleted: true, changedAt: expect.any(String), reason: 'unshared' });

  it('a memory shared with the reader arrives; unshared, it arrives as a tombstone; nobody else hears of it', async () => {
    let bob = (await start(w.otherAgent)).cursor;
    const carol = (await start(w.wideAgent)).cursor;
    const alice = (await start(w.agent)).cursor;

    const id = await alicesPrivate();
    const stored = await follow(w.otherAgent, bob, await marker());
    expect(stored.items.map(itemId)).not.toContain(id);
    bob = stored.cursor;

    const shareId = await share(id);
    const shared = await follow(w.otherAgent, bob, await marker());
    expect(shared.items).toEqual([memoryItem(id)]);
    bob = shared.cursor;

    await unshare(shareId);
    const taken = await follow(w.otherAgent, bob, await marker());
    expect(taken.items).toEqual([unshared(id)]);
    // Gone for Bob, as the tombstone says.
    expect((await w.otherAgent.get(memoriesUrl(w.project, `/${id}`))).status).toBe(404);

    // Carol was never given it, and Alice's own feed carried only her own write.
    const carols = await follow(w.wideAgent, carol, await marker());
    expect(carols.items.map(itemId)).not.toContain(id);
    const alices = await follow(w.agent, alice, await marker());
    expect(alices.items).toEqual([memoryItem(id)]);
  });

  it('a tag rule brings the owner’s tagged memories; taking the tag off or removing the rule withdraws them', async () => {
    let bob = (await start(w.otherAgent)).cursor;
    const tag = `handover-${randomUUID().slice(0, 8)}`;
    const first = await alicesPrivate({ tags: [tag] });
    const second = await alicesPrivate({ tags: [tag, 'ops'] });
    const untagged = await alicesPrivate({ tags: ['ops'] });
    // Past the stores (none of them Bob's to see) before the rule is made.
    const stored = await follow(w.otherAgent, bob, await marker());
    expect(stored.items).toEqual([]);
    bob = stored.cursor;

    const rule = await w.agent.post(`${base()}/share-rules`, { tag, agentId: 'cursor:bob' });
    expect(rule.status).toBe(201);
    const made = await follow(w.otherAgent, bob, await marker());
    expect(made.items).toHaveLength(2);
    expect(made.items).toEqual(expect.arrayContaining([memoryItem(first), memoryItem(second)]));
    bob = made.cursor;

    // The tag taken off one memory: Bob loses it at once.
    expect((await w.agent.patch(memoriesUrl(w.project, `/${second}`), { tags: ['ops'] })).status).toBe(200);
    const untaggedNow = await follow(w.otherAgent, bob, await marker());
    expect(untaggedNow.items).toEqual([unshared(second)]);
    bob = untaggedNow.cursor;

    // Put back, it comes back (the row changed and Bob may see it again).
    expect((await w.agent.patch(memoriesUrl(w.project, `/${second}`), { tags: ['ops', tag] })).status).toBe(200);
    const back = await follow(w.otherAgent, bob, await marker());
    expect(back.items).toEqual([memoryItem(second)]);
    bob = back.cursor;

    // An edit that keeps the tag withdraws nothing.
    expect((await w.agent.patch(memoriesUrl(w.project, `/${first}`), { importance: 4 })).status).toBe(200);
    const edited = await follow(w.otherAgent, bob, await marker());
    expect(edited.items).toEqual([memoryItem(first)]);
    bob = edited.cursor;

    expect((await w.agent.delete(`${base()}/share-rules/${rule.body.id}`)).status).toBe(204);
    const removed = await follow(w.otherAgent, bob, await marker());
    expect(removed.items).toHaveLength(2);
    expect(removed.items).toEqual(expect.arrayContaining([unshared(first), unshared(second)]));
    expect(removed.items.map(itemId)).not.toContain(untagged);
  });

  it('a memory still shared another way arrives as itself when one grant goes', async () => {
    let bob = (await start(w.otherAgent)).cursor;
    const tag = `both-${randomUUID().slice(0, 8)}`;
    const id = await alicesPrivate({ tags: [tag] });
    await share(id);
    const rule = await w.agent.post(`${base()}/share-rules`, { tag, agentId: 'cursor:bob' });
    expect(rule.status).toBe(201);
    bob = (await follow(w.otherAgent, bob, await marker())).cursor;

    expect((await w.agent.delete(`${base()}/share-rules/${rule.body.id}`)).status).toBe(204);
    const after = await follow(w.otherAgent, bob, await marker());
    expect(after.items).toEqual([memoryItem(id)]);
    expect((await w.otherAgent.get(memoriesUrl(w.project, `/${id}`))).status).toBe(200);
  });

  it('pages notices and rows together exactly, one item a page', async () => {
    const bob = (await start(w.otherAgent)).cursor;
    const tag = `paged-${randomUUID().slice(0, 8)}`;
    const ids = [await alicesPrivate({ tags: [tag] }), await alicesPrivate({ tags: [tag] })];
    const rule = await w.agent.post(`${base()}/share-rules`, { tag, agentId: 'cursor:bob' });
    expect(rule.status).toBe(201);
    const own = await store(w.otherAgent, w.project, { content: `Bob's own ${randomUUID()}` });
    expect((await w.agent.delete(`${base()}/share-rules/${rule.body.id}`)).status).toBe(204);
    const end = await marker();

    // The whole sequence in one drain, then again a page at a time: the same items in the same order.
    const whole = await follow(w.otherAgent, bob, end);
    const paged: ChangeItem[] = [];
    let cursor = bob;
    for (let page = 0; page < 50 && !paged.some((item) => itemId(item) === end); page++) {
      const next = await changes(w.otherAgent, w.project, cursor, 1);
      paged.push(...next.items);
      cursor = next.nextCursor;
    }
    expect(paged.filter((item) => !markers.has(itemId(item)))).toEqual(whole.items);
    // The rule's two memories (one transaction, in id order), Bob's own, then the rule's removal.
    // Each notice answers with the memory as it stands when read: by now, no longer Bob's to see.
    const sorted = [...ids].sort();
    expect(whole.items).toEqual([
      ...sorted.map(unshared),
      { memory: expect.objectContaining({ id: own.memory.id }) },
      ...sorted.map(unshared),
    ]);
  });
});
