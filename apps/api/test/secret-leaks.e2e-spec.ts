import { randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import { type NestFastifyApplication } from '@nestjs/platform-fastify';
import {
  createTestDatabase,
  createTestHttpApp,
  TEST_ADMIN_TOKEN,
  TestClient,
  testConfig,
  type TestDatabase,
  testRedisUrl,
} from '@cairn/testing';
import pino from 'pino';
import { DataSource } from 'typeorm';
import { ApiModule } from '../src/api.module';
import { memoriesUrl, type MemoryWorld, memoryWorld } from './memory-fixtures';

/**
 * Synthetic, format-valid secrets, one set per write path, so a leak names its path. Each is a
 * value the scanner finds (provider formats, a password in a connection string).
 */
const SECRETS = {
  memoryStore: 'AKIA2E4AYF3B7C5DQGQW',
  memoryTag: 'ghp_Lm4nB8vC2xZ6qW0eR3tY7uI1oP5aS9dF2gH8',
  memoryUpdate: 'xoxb-2952184730-4819274013852-kT7mQ2pL9vX4nR8sW3yZ6bC1',
  workingMemory: 'ghp_Zq8vN3kT5wR1yL7pC2xM9bH4dF6gJ0sA1b2c',
  kbPassword: 'Vw83nPq2Lk7dZr',
  eventSummary: 'sk_live_51Hq8Xk2LmN4pQ7rS9tU3vW6yZ0aB1cD2eF3gH4iJ5kL6mN',
  eventDetails: 'glpat-Xr7Kp2Qm9Wv4Tn8Ls3Hd',
  sessionSummary: 'npm_Ab3Cd5Ef7Gh9Ij1Kl3Mn5Op7Qr9St1Uv3Wx5',
  rejected: 'AKIA5K7M2P4R6T3W5Y7Z',
} as const;

/**
 * Issue 12 §1: with `redact`, a secret written through any path is stored only sealed, so it
 * must not come back out anywhere else either: not in the process's logs (every level), not in
 * /metrics, not in audit entries, not in an export, a briefing or an error body.
 */
describe('secrets never leak (REST, redact)', () => {
  let database: TestDatabase;
  let app: NestFastifyApplication;
  let w: MemoryWorld;
  let db: DataSource;
  const logLines: string[] = [];
  const url = (suffix: string) => `/v1/projects/${w.project}${suffix}`;

  /** The secrets (and their distinctive middles, in case of truncation) found in `text`. */
  function leaked(text: string): string[] {
    return Object.entries(SECRETS).flatMap(([path, value]) => {
      const middle = value.slice(4, value.length - 4);
      return text.includes(value) || text.includes(middle) ? [`${path}: ${value}`] : [];
    });
  }

  beforeAll(async () => {
    database = await createTestDatabase();
    const config = testConfig(database.url, testRedisUrl(), {
      LOG_LEVEL: 'trace',
      QUEUE_PREFIX: `t${randomBytes(4).toString('hex')}`,
    });
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        logLines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
        done();
      },
    });
    app = await createTestHttpApp(
      ApiModule.register(config),
      config,
      'api',
      pino({ level: 'trace', base: { app: 'api' } }, sink),
    );
    const client = new TestClient(app);
    w = await memoryWorld({ app, config, database, client, admin: client.as(TEST_ADMIN_TOKEN), close: async () => {} });
    db = app.get(DataSource);
  });
  afterAll(async () => {
    await app.close();
    await database.drop();
  });

  it('redacts every write path', async () => {
    const stored = await w.agent.post(memoriesUrl(w.project), {
      content: `Deploys sign with ${SECRETS.memoryStore} (rotate monthly).`,
      tags: ['deploy'],
      keywords: [SECRETS.memoryTag],
    });
    expect(stored.status).toBe(201);
    const updated = await w.agent.patch(memoriesUrl(w.project, `/${stored.body.memory.id}`), {
      content: `Deploys now post to Slack with ${SECRETS.memoryUpdate} after signing.`,
    });
    expect(updated.status).toBe(200);
    const working = await w.agent.request('PUT', url('/working-memory/deploy-token'), {
      value: `token ${SECRETS.workingMemory}`,
    });
    expect(working.status).toBe(200);
    const kb = await w.agent.post(url('/kb/documents'), {
      source: 'runbooks/db.md',
      text: `# Database\nConnect with postgres://app:${SECRETS.kbPassword}@db.internal:5432/app from the bastion.`,
    });
    expect(kb.status).toBe(201);
    const event = await w.agent.post(url('/events'), {
      kind: 'error',
      summary: `charge failed with ${SECRETS.eventSummary}`,
      details: { retry: { token: SECRETS.eventDetails } },
    });
    expect(event.status).toBe(201);
    const summary = await w.agent.post(url('/session/summary'), {
      text: `Published the package with ${SECRETS.sessionSummary}; deploys sign as before.`,
    });
    expect(summary.status).toBeLessThan(300);
    for (const response of [stored, updated, working, kb, event, summary]) {
      expect(leaked(JSON.stringify(response.body))).toEqual([]);
      expect(response.body.redacted?.length ?? 1).toBeGreaterThan(0);
    }
  });

  it('answers a refused write (reject) and bad input with types and codes, never the value', async () => {
    const settings = `/v1/tenants/${w.tenant.slug}/settings`;
    expect((await w.admin.patch(settings, { secrets: 'reject' })).status).toBe(200);
    try {
      const refused = await w.agent.post(memoriesUrl(w.project), { content: `use ${SECRETS.rejected}` });
      expect(refused.status).toBe(400);
      expect(refused.body.error.code).toBe('secrets_rejected');
      expect(refused.body.error.message).toContain('aws-access-token');
      expect(leaked(JSON.stringify(refused.body))).toEqual([]);
    } finally {
      await w.admin.patch(settings, { secrets: 'redact' });
    }
    const badInputs = [
      await w.agent.post(memoriesUrl(w.project), { content: SECRETS.rejected, importance: SECRETS.rejected }),
      await w.agent.post(memoriesUrl(w.project), { content: SECRETS.rejected, [SECRETS.rejected]: 1 }),
      await w.admin.patch(settings, { secrets: SECRETS.rejected }),
      await w.agent.request('PUT', url('/working-memory/k'), { value: SECRETS.rejected, importance: 'high' }),
      await w.agent.post(url('/events'), { kind: SECRETS.rejected, summary: SECRETS.rejected }),
      // A body that is not JSON: parsers quote the text around the fault.
      await w.agent.post(memoriesUrl(w.project), `{"content": ${SECRETS.rejected}}`),
      await w.agent.post(url('/events'), { kind: 'custom', summary: 'x', details: { [SECRETS.rejected]: 1 }, tags: 5 }),
    ];
    for (const response of badInputs) {
      expect(response.status).toBe(400);
      expect(response.body.correlationId ?? response.body.error?.correlationId).toBeDefined();
      expect({ body: response.body, leaked: leaked(JSON.stringify(response.body)) }).toEqual({
        body: response.body,
        leaked: [],
      });
    }
  });

  it('keeps them out of briefings and exports', async () => {
    const briefing = await w.agent.post(url('/context'), {});
    expect(briefing.status).toBeLessThan(300);
    expect(JSON.stringify(briefing.body)).toContain('[SECRET:');
    expect(leaked(JSON.stringify(briefing.body))).toEqual([]);
    const exported = await app.inject({
      method: 'GET',
      url: memoriesUrl(w.project, '/export'),
      headers: { authorization: `Bearer ${w.agent.token}` },
    });
    expect(exported.statusCode).toBe(200);
    const text = exported.body;
    expect(text).toContain('[SECRET:');
    expect(leaked(text)).toEqual([]);
  });

  it('keeps them out of the audit logs, /metrics and every log line', async () => {
    const tenantAudit = await db.query(`SELECT * FROM "${w.tenant.schema}".audit_log`);
    const platformAudit = await db.query(`SELECT * FROM cairn.platform_audit`);
    expect(tenantAudit.length + platformAudit.length).toBeGreaterThan(0);
    expect(leaked(JSON.stringify([tenantAudit, platformAudit]))).toEqual([]);

    const metrics = await w.agent.get('/metrics');
    expect(metrics.status).toBe(200);
    expect(String(metrics.body)).toContain('http_request');
    expect(leaked(String(metrics.body))).toEqual([]);

    expect(logLines.length).toBeGreaterThan(20);
    expect(leaked(logLines.join('\n'))).toEqual([]);
  });
});
