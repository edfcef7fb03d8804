import { AuditBuffer, GENESIS_HASH, TenantAuditLog } from '@cairn/audit';
import { createProject, createTenant, issueToken, type TenantFixture, type TestClient } from '@cairn/testing';
import { DataSource } from 'typeorm';
import { type ApiHarness, startApi } from './api-harness';

interface Entry {
  id: string;
  action: string;
  outcome: string;
  actor: string;
  hash: string;
  prevHash: string;
}

const ZERO_HASH = GENESIS_HASH.toString('hex');

/**
 * Each tenant's audit log lives in its schema, is append-only, and is hash-chained: a
 * tenant admin can page through it and have the chain recomputed, and any altered, removed
 * or reordered entry is reported.
 */
describe("a tenant's audit log", () => {
  let api: ApiHarness;
  let tenant: TenantFixture;
  let tenantAdmin: TestClient;
  let sql: <T = unknown>(query: string, params?: unknown[]) => Promise<T[]>;

  const page = async (slug = tenant.slug, client = tenantAdmin, query = 'limit=500') => {
    const response = await client.get<{ items: Entry[]; nextCursor: string | null }>(
      `/v1/tenants/${slug}/audit?${query}`,
    );
    expect(response.status).toBe(200);
    return response.body;
  };
  const verify = async (slug = tenant.slug) => (await tenantAdmin.get(`/v1/tenants/${slug}/audit/verify`)).body;

  beforeAll(async () => {
    api = await startApi();
    tenant = await createTenant(api.admin);
    tenantAdmin = api.client.as((await issueToken(api.admin, tenant.slug, { role: 'admin' })).token);
    const dataSource = api.app.get(DataSource);
    sql = (query, params = []) => dataSource.query(query.replaceAll('{log}', `"${tenant.schema}".audit_log`), params);
  });
  afterAll(() => api.close());

  it('records administrative actions and denials in one chain that verifies', async () => {
    await createProject(tenantAdmin, tenant.slug, 'payments');
    const reader = api.client.as((await issueToken(tenantAdmin, tenant.slug, { role: 'reader' })).token);
    expect((await reader.post(`/v1/tenants/${tenant.slug}/projects`, { slug: 'nope', name: 'Nope' })).status).toBe(403);

    const { items } = await page();
    expect(items.map((entry) => `${entry.action}:${entry.outcome}`)).toEqual(
      expect.arrayContaining(['project.create:success', 'token.issue:success', 'project.create:denied']),
    );
    // Newest first, each entry chained onto the one before it, the oldest onto the genesis hash.
    items.forEach((entry, i) => expect(entry.prevHash).toBe(items[i + 1]?.hash ?? ZERO_HASH));
    expect(await verify()).toEqual({
      valid: true,
      entries: items.length,
      prunedThrough: null,
      head: items[0]?.hash,
      firstInvalidId: null,
      reason: null,
    });
  });

  it('keeps one chain while many writers append at once', async () => {
    const log = api.app.get(TenantAuditLog);
    const before = (await verify()).entries;
    await Promise.all(
      Array.from({ length: 12 }, (_, writer) =>
        log.appendMany(
          tenant.schema,
          Array.from({ length: 5 }, (_, n) => ({
            actor: `token:writer-${writer}`,
            action: 'mcp.memory_store',
            target: 'payments',
            outcome: 'success' as const,
            status: null,
            requestId: `req-${writer}-${n}`,
            details: { argsDigest: `${writer}-${n}`, agentId: undefined },
          })),
        ),
      ),
    );
    expect(await verify()).toMatchObject({ valid: true, entries: before + 60 });
  });

  it('refuses to change or remove entries', async () => {
    await expect(sql(`UPDATE {log} SET actor = 'someone else'`)).rejects.toThrow(/append-only/);
    await expect(sql(`DELETE FROM {log}`)).rejects.toThrow(/append-only/);
    await expect(sql(`TRUNCATE {log}`)).rejects.toThrow(/append-only/);
    expect((await verify()).valid).toBe(true);
  });

  it('reports the first altered, removed or reordered entry when the protection is bypassed', async () => {
    const entry = { actor: 'token:t', action: 'mcp.status', target: null, status: null, requestId: null };
    await api.app.get(TenantAuditLog).appendMany(tenant.schema, [
      { ...entry, outcome: 'success' },
      { ...entry, outcome: 'failure' },
      { ...entry, outcome: 'success' },
    ]);
    const [oldest, second, third] = await sql<{ id: string }>(
      `SELECT a.id::text AS id FROM {log} a ORDER BY a.id LIMIT 3`,
    );
    // What only the table owner could do: switch the trigger off and edit history.
    await sql(`ALTER TABLE {log} DISABLE TRIGGER audit_log_append_only`);
    try {
      await sql(`UPDATE {log} SET actor = actor || ' (edited)' WHERE id = $1`, [second.id]);
      expect(await verify()).toMatchObject({
        valid: false,
        entries: 1,
        firstInvalidId: second.id,
        reason: expect.stringContaining('altered'),
      });
      await sql(`DELETE FROM {log} WHERE id = $1`, [second.id]);
      expect(await verify()).toMatchObject({
        valid: false,
        firstInvalidId: third.id,
        reason: expect.stringContaining('removed'),
      });
      expect(oldest).toBeDefined();
    } finally {
      await sql(`ALTER TABLE {log} ENABLE TRIGGER audit_log_append_only`);
    }
  });

  it('is readable by the tenant admin and the platform admin only, and checks its query', async () => {
    const other = await createTenant(api.admin);
    const otherAdmin = api.client.as((await issueToken(api.admin, other.slug, { role: 'admin' })).token);
    const member = api.client.as((await issueToken(api.admin, other.slug, { role: 'member' })).token);
    expect((await otherAdmin.get(`/v1/tenants/${tenant.slug}/audit`)).status).toBe(403);
    expect((await otherAdmin.get(`/v1/tenants/${tenant.slug}/audit/verify`)).status).toBe(403);
    expect((await member.get(`/v1/tenants/${other.slug}/audit`)).status).toBe(403);
    expect((await api.admin.get(`/v1/tenants/${other.slug}/audit/verify`)).body).toMatchObject({ valid: true });
    expect((await api.admin.get(`/v1/tenants/no-such-tenant/audit/verify`)).status).toBe(404);
    // 9916751225754343080 is 19 digits but past the largest bigint (schemathesis found a 500 there).
    for (const query of [
      'limit=0',
      'limit=501',
      'before=abc',
      'before=0',
      'limit=5&unknown=1',
      'before=9916751225754343080',
    ]) {
      const response = await tenantAdmin.get(`/v1/tenants/${tenant.slug}/audit?${query}`);
      expect({ query, status: response.status }).toEqual({ query, status: 400 });
    }
    // The platform log also lists newest first, by number (id 10 after 9, not after 1).
    for (let i = 0; i < 4; i += 1) await createTenant(api.admin);
    expect((await api.admin.get('/v1/audit?before=9916751225754343080')).status).toBe(400);
    const platform = (await api.admin.get<{ items: { id: string }[] }>('/v1/audit?limit=500')).body.items;
    expect(platform.length).toBeGreaterThan(10);
    expect(platform.map((entry) => Number(entry.id))).toEqual(
      platform.map((entry) => Number(entry.id)).sort((x, y) => y - x),
    );
    // Pages backwards without gaps or repeats.
    const first = await page(tenant.slug, tenantAdmin, 'limit=3');
    const next = await page(tenant.slug, tenantAdmin, `limit=3&before=${first.nextCursor}`);
    expect(next.items[0]?.hash).toBe(first.items[2]?.prevHash);
  });

  it('narrows the log by actor (a user matches all its tokens), action, outcome and time', async () => {
    const log = api.app.get(TenantAuditLog);
    const fresh = await createTenant(api.admin);
    const base = { target: 'p', status: null, requestId: null };
    const lastWeek = new Date(Date.now() - 7 * 86_400_000);
    await log.appendMany(fresh.schema, [
      { ...base, actor: 'user:u1/token:t1', action: 'mcp.memory_store', outcome: 'success', at: lastWeek },
      { ...base, actor: 'user:u1/token:t2', action: 'mcp.memory_recall', outcome: 'denied' },
      { ...base, actor: 'user:u10/token:t3', action: 'token.issue', outcome: 'success' },
      { ...base, actor: 'platform-admin', action: 'token.issue', outcome: 'failure' },
      // A subject of an outside authorization server, as it spells it (docs/oauth.md).
      {
        ...base,
        actor: 'jwt:https://idp.example/t1/sub:auth0|5f7c+x=1',
        action: 'mcp.memory_recall',
        outcome: 'success',
      },
    ]);
    const list = async (query: string) => {
      const response = await api.admin.get<{ items: { actor: string; action: string }[] }>(
        `/v1/tenants/${fresh.slug}/audit?${query}`,
      );
      expect({ query, status: response.status }).toEqual({ query, status: 200 });
      return response.body.items.map((entry) => `${entry.actor} ${entry.action}`);
    };
    expect(await list('actor=user:u1')).toEqual([
      'user:u1/token:t2 mcp.memory_recall',
      'user:u1/token:t1 mcp.memory_store',
    ]);
    expect(await list('actor=user:u1/token:t1')).toEqual(['user:u1/token:t1 mcp.memory_store']);
    expect(await list('action=token.issue&outcome=failure')).toEqual(['platform-admin token.issue']);
    expect(await list('action=mcp.')).toHaveLength(3);
    expect(await list(`actor=${encodeURIComponent('jwt:https://idp.example/t1/sub:auth0|5f7c+x=1')}`)).toEqual([
      'jwt:https://idp.example/t1/sub:auth0|5f7c+x=1 mcp.memory_recall',
    ]);
    expect(await list('action=mcp')).toEqual([]);
    const yesterday = new Date(Date.now() - 86_400_000).toISOString();
    expect(await list(`actor=user:u1&from=${yesterday}`)).toEqual(['user:u1/token:t2 mcp.memory_recall']);
    expect(await list(`actor=user:u1&to=${encodeURIComponent(yesterday)}`)).toEqual([
      'user:u1/token:t1 mcp.memory_store',
    ]);
    for (const query of [
      'actor=a%20b',
      'action=x%25',
      'outcome=maybe',
      'from=yesterday',
      // `from` after `to`.
      `from=${encodeURIComponent(new Date().toISOString())}&to=${encodeURIComponent(yesterday)}`,
    ]) {
      const response = await api.admin.get(`/v1/tenants/${fresh.slug}/audit?${query}`);
      expect({ query, status: response.status }).toEqual({ query, status: 400 });
    }
    // `from` is inclusive and `to` exclusive: the same instant for both is an empty window, not an error.
    expect(await list(`from=${encodeURIComponent(yesterday)}&to=${encodeURIComponent(yesterday)}`)).toEqual([]);
    // The platform log takes the same filters.
    const platform = await api.admin.get<{ items: { action: string }[] }>('/v1/audit?action=tenant.create&limit=500');
    expect(platform.status).toBe(200);
    expect(platform.body.items.length).toBeGreaterThan(0);
    expect(platform.body.items.every((entry) => entry.action === 'tenant.create')).toBe(true);
    const none = await api.admin.get<{ items: unknown[] }>(
      `/v1/audit?from=${new Date(Date.now() + 60_000).toISOString()}`,
    );
    expect(none.body.items).toEqual([]);
  });

  it('prunes entries past retention and still verifies, from the last pruned entry', async () => {
    const log = api.app.get(TenantAuditLog);
    const fresh = await createTenant(api.admin);
    const entry = { actor: 'token:t', action: 'mcp.memory_recall', target: 'p', status: null, requestId: null };
    const yearsAgo = new Date(Date.now() - 2 * 365 * 86_400_000);
    await log.appendMany(fresh.schema, [
      { ...entry, outcome: 'success', at: yearsAgo },
      { ...entry, outcome: 'denied', at: yearsAgo },
      { ...entry, outcome: 'success', at: yearsAgo },
    ]);
    await log.appendMany(fresh.schema, [
      { ...entry, outcome: 'success' },
      { ...entry, outcome: 'failure' },
    ]);
    const oldest = await log.list(fresh.schema, { limit: 10 });
    const lastOld = oldest[2];

    expect(await log.prune(fresh.schema, new Date(Date.now() - 365 * 86_400_000))).toBe(3);
    expect(await log.prune(fresh.schema, new Date(Date.now() - 365 * 86_400_000))).toBe(0);
    const verified = (await api.admin.get(`/v1/tenants/${fresh.slug}/audit/verify`)).body;
    expect(verified).toEqual({
      valid: true,
      entries: 2,
      prunedThrough: { id: lastOld?.id, hash: lastOld?.hash, entriesPruned: 3 },
      head: oldest[0]?.hash,
      firstInvalidId: null,
      reason: null,
    });
    // Pruned to nothing, the next entry still chains onto the last pruned one.
    expect(await log.prune(fresh.schema, new Date(Date.now() + 60_000))).toBe(2);
    await log.appendMany(fresh.schema, [{ ...entry, outcome: 'success' }]);
    expect((await api.admin.get(`/v1/tenants/${fresh.slug}/audit/verify`)).body).toMatchObject({
      valid: true,
      entries: 1,
      prunedThrough: { entriesPruned: 5 },
    });
    // Outside the purge, history and the checkpoint stay untouchable.
    const table = `"${fresh.schema}"`;
    const dataSource = api.app.get(DataSource);
    await expect(dataSource.query(`DELETE FROM ${table}.audit_log`)).rejects.toThrow(/append-only/);
    await expect(dataSource.query(`UPDATE ${table}.audit_log_checkpoint SET entries_pruned = 0`)).rejects.toThrow(
      /append-only/,
    );
  });

  it('drains the audit queue one flush at a time however many are asked for: each entry once, in order', async () => {
    const buffer = api.app.get(AuditBuffer);
    const log = api.app.get(TenantAuditLog);
    const fresh = await createTenant(api.admin);
    const before = (await log.verify(fresh.schema)).entries;
    const entry = {
      actor: 'token:burst',
      action: 'mcp.memory_recall',
      target: 'p',
      outcome: 'success' as const,
      status: null,
    };
    // The real append, slowed down and watched: how many run at once.
    const append = log.appendMany.bind(log);
    let running = 0;
    let most = 0;
    const watched = jest.spyOn(log, 'appendMany').mockImplementation(async (schema, entries) => {
      running += 1;
      most = Math.max(most, running);
      try {
        await new Promise((resolve) => setTimeout(resolve, 20));
        return await append(schema, entries);
      } finally {
        running -= 1;
      }
    });
    const count = 1_200;
    try {
      // The first append arms the drain timer: it fires while the rest are still arriving.
      for (let i = 0; i < count; i += 1) await buffer.append(fresh.schema, { ...entry, requestId: `burst-${i}` });
      await Promise.all([buffer.flush(), buffer.flush(), buffer.flush()]);
    } finally {
      watched.mockRestore();
    }
    expect(most).toBe(1);
    const rows = await api.app
      .get(DataSource)
      .query<{ request_id: string }[]>(
        `SELECT request_id FROM "${fresh.schema}".audit_log WHERE actor = 'token:burst' ORDER BY id`,
      );
    expect(rows.map((row) => row.request_id)).toEqual(Array.from({ length: count }, (_, i) => `burst-${i}`));
    expect(await log.verify(fresh.schema)).toMatchObject({ valid: true, entries: before + count });
  });

  it('writes a queued entry once even when it is delivered twice', async () => {
    const log = api.app.get(TenantAuditLog);
    const fresh = await createTenant(api.admin);
    const entry = {
      actor: 'token:again',
      action: 'mcp.memory_store',
      target: 'p',
      outcome: 'success' as const,
      status: null,
      requestId: 'again',
      queueId: '1700000000000-0',
    };
    // A drainer that stopped after its commit, before removing the entry: the next one writes it again.
    await log.appendMany(fresh.schema, [entry]);
    await log.appendMany(fresh.schema, [entry, { ...entry, requestId: 'next', queueId: '1700000000000-1' }]);
    const rows = await api.app
      .get(DataSource)
      .query<{ request_id: string }[]>(
        `SELECT request_id FROM "${fresh.schema}".audit_log WHERE actor = 'token:again' ORDER BY id`,
      );
    expect(rows.map((row) => row.request_id)).toEqual(['again', 'next']);
    expect((await log.verify(fresh.schema)).valid).toBe(true);
  });

  it('drops buffered tool-call rows of a deleted tenant without holding up other tenants', async () => {
    const buffer = api.app.get(AuditBuffer);
    const doomed = await createTenant(api.admin);
    expect((await api.admin.delete(`/v1/tenants/${doomed.slug}`)).status).toBeLessThan(300);
    const entry = {
      actor: 'token:x',
      action: 'mcp.memory_recall',
      target: null,
      outcome: 'success' as const,
      status: null,
      requestId: 'late',
    };
    const survivor = await createTenant(api.admin);
    await buffer.append(doomed.schema, entry);
    await buffer.append(survivor.schema, entry);
    await buffer.flush();
    const rows = await api.app
      .get(DataSource)
      .query<{ action: string }[]>(`SELECT action FROM "${survivor.schema}".audit_log WHERE request_id = 'late'`);
    expect(rows).toEqual([{ action: 'mcp.memory_recall' }]);
    // Nothing left to retry: a second flush writes nothing more.
    await buffer.flush();
    expect(
      await api.app
        .get(DataSource)
        .query(`SELECT 1 FROM "${survivor.schema}".audit_log WHERE request_id = 'late'`)
        .then((found: unknown[]) => found.length),
    ).toBe(1);
  });
});
