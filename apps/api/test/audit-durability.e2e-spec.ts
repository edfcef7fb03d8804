import { randomUUID } from 'node:crypto';
import { AuditBuffer, TenantAuditLog } from '@cairn/audit';
import { createProject, createTenant, issueToken } from '@cairn/testing';
import { DataSource } from 'typeorm';
import { type ApiHarness, startApi } from './api-harness';
import { eventually, killAllChildren, startApp, takeSpawnedChildren } from './process-harness';

const CALLS = 5;

/**
 * Preloaded into a gateway (`NODE_OPTIONS=--import=…`): holds every tool call's answer back
 * for a minute after the handler finished (its transaction committed), before the call's audit
 * entry is queued and the answer sent, so a SIGKILL lands in that window every time. It only
 * delays; what the gateway does is untouched.
 */
const HOLD_ANSWERS = `data:text/javascript,${encodeURIComponent(`
  import { createRequire } from 'node:module';
  const require = createRequire(process.cwd() + '/');
  const { ToolExecutor } = require('./dist/libs/mcp/src/tool-executor.service.js');
  const record = ToolExecutor.prototype.record;
  if (typeof record !== 'function') throw new Error('ToolExecutor.prototype.record is gone: update the test');
  ToolExecutor.prototype.record = async function (...args) {
    await new Promise((wake) => setTimeout(wake, 60_000));
    return record.apply(this, args);
  };
`)}`;

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
    // Each store's outbox row (written with its memory) was replaced by its answered entry.
    const [{ left }] = await dataSource.query<{ left: number }[]>(
      `SELECT count(*)::int AS left FROM cairn.audit_outbox WHERE tenant_schema = $1`,
      [tenant.schema],
    );
    expect(left).toBe(0);
    expect(await api.app.get(TenantAuditLog).verify(tenant.schema)).toMatchObject({ valid: true });
  });

  it('keeps the entry of a store that committed while the gateway was killed before answering', async () => {
    const tenant = await createTenant(api.admin);
    const project = (await createProject(api.admin, tenant.slug)).slug;
    const { token } = await issueToken(api.admin, tenant.slug, { role: 'agent', projects: [project] });
    const gateway = await startApp('mcp-gateway', {
      DATABASE_URL: api.database.url,
      REDIS_URL: api.config.redis.url,
      CAIRN_MASTER_KEY: api.config.secrets.masterKey!.toString('base64'),
      QUEUE_PREFIX: api.config.queues.prefix,
      NODE_OPTIONS: `--import=${HOLD_ANSWERS}`,
    });
    const dataSource = api.app.get(DataSource);
    const content = `Committed, then the gateway died ${randomUUID()}`;
    const correlationId = randomUUID();
    const answer = fetch(`${gateway.url}/mcp`, {
      method: 'POST',
      headers: {
        Authorization: `Bearer ${token}`,
        Accept: 'application/json, text/event-stream',
        'Content-Type': 'application/json',
        'X-Request-Id': correlationId,
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'memory_store', arguments: { content } },
      }),
    }).then(
      (response) => `answered ${response.status}`,
      () => 'no answer',
    );
    // The store committed; its answer is held back. Kill -9 now: no shutdown hook, nothing flushed.
    await eventually(
      async () =>
        (await dataSource.query<unknown[]>(`SELECT id FROM "${tenant.schema}".memories WHERE content = $1`, [content]))
          .length > 0 || undefined,
      15_000,
      'the store to commit',
    );
    gateway.process.signal('SIGKILL');
    expect((await gateway.process.exited).signal).toBe('SIGKILL');
    expect(await answer).toBe('no answer');

    // The api's sweep writes it to the chain once nobody else has for 30 s (the call's own
    // replica would have, with its outcome, right after answering).
    const rows = await eventually(
      async () => {
        const found = await dataSource.query<{ action: string; outcome: string; target: string; details: any }[]>(
          `SELECT action, outcome, target, details FROM "${tenant.schema}".audit_log WHERE request_id = $1`,
          [correlationId],
        );
        return found.length > 0 ? found : undefined;
      },
      60_000,
      'the audit entry of the committed store',
    );
    expect(rows).toEqual([
      {
        action: 'mcp.memory_store',
        outcome: 'success',
        target: project,
        details: expect.objectContaining({ argsDigest: expect.any(String), unanswered: true }),
      },
    ]);
    expect(await api.app.get(TenantAuditLog).verify(tenant.schema)).toMatchObject({ valid: true });
  }, 90_000);
});
