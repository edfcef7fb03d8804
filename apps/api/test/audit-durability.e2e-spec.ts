import { AuditBuffer, TenantAuditLog } from '@cairn/audit';
import { createProject, createTenant, issueToken } from '@cairn/testing';
import { DataSource } from 'typeorm';
import { type ApiHarness, startApi } from './api-harness';
import { eventually, killAllChildren, startApp, takeSpawnedChildren } from './process-harness';

const CALLS = 5;

/**
 * A tool call's audit entry is durable before the call is answered: the built gateway, a real
 * process, is killed with SIGKILL (no shutdown hook, nothing flushed) the moment it has
 * answered, and every answered call is in the tenant's chain afterwards, written once, drained
 * by another replica (the api here) from the audit queue they share.
 */
describe('tool-call audit entries across a gateway crash', () => {
  let api: ApiHarness;

  beforeAll(async () => {
    api = await startApi();
  });
  afterEach(async () => {
    await killAllChildren();
    takeSpawnedChildren();
  });
  afterAll(() => api?.close());

  it('keeps the entry of every call answered before the gateway was killed', async () => {
    const tenant = await createTenant(api.admin);
    const project = (await createProject(api.admin, tenant.slug)).slug;
    const { token } = await issueToken(api.admin, tenant.slug, { role: 'agent', projects: [project] });
    const masterKey = api.config.secrets.masterKey;
    if (!masterKey) throw new Error('the api harness has no master key');
    const gateway = await startApp('mcp-gateway', {
      DATABASE_URL: api.database.url,
      REDIS_URL: api.config.redis.url,
      CAIRN_MASTER_KEY: masterKey.toString('base64'),
      QUEUE_PREFIX: api.config.queues.prefix,
    });

    let answered = 0;
    for (let i = 0; i < CALLS; i += 1) {
      const response = await fetch(`${gateway.url}/mcp`, {
        method: 'POST',
        headers: {
          Authorization: `Bearer ${token}`,
          Accept: 'application/json, text/event-stream',
          'Content-Type': 'application/json',
        },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: i,
          method: 'tools/call',
          params: { name: 'memory_store', arguments: { content: `Crash test fact number ${i}` } },
        }),
      });
      const body = (await response.json()) as { result?: { isError?: boolean } };
      expect({ status: response.status, isError: body.result?.isError ?? false }).toEqual({
        status: 200,
        isError: false,
      });
      answered += 1;
    }
    // The last answer is in; no graceful shutdown, nothing flushed.
    gateway.process.signal('SIGKILL');
    expect((await gateway.process.exited).signal).toBe('SIGKILL');

    const dataSource = api.app.get(DataSource);
    const rows = await eventually(
      async () => {
        await api.app.get(AuditBuffer).flush();
        const found = await dataSource.query<{ request_id: string; outcome: string }[]>(
          `SELECT request_id, outcome FROM "${tenant.schema}".audit_log WHERE action = 'mcp.memory_store' ORDER BY id`,
        );
        return found.length >= CALLS ? found : undefined;
      },
      // The killed gateway may have held the drain lock: it expires after 10 s.
      20_000,
      'the audit entries of the answered calls',
    );
    expect(rows.map((row) => row.outcome)).toEqual(Array.from({ length: answered }, () => 'success'));
    expect(new Set(rows.map((row) => row.request_id)).size).toBe(CALLS);
    expect(await api.app.get(TenantAuditLog).verify(tenant.schema)).toMatchObject({ valid: true });
  });
});
