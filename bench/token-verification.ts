import { randomBytes } from 'node:crypto';
import { TokenVerifier } from '@cairn/auth';
import { DataSource } from 'typeorm';
import { type BenchApp } from './lib/app';
import { compareUnderLoad, type LoadOptions, type LoadResult } from './lib/load';
import { poolMax, waitForIdlePool } from './lib/pool';
import { type ResultRow, row } from './lib/report';

export interface TokenVerificationInput {
  readonly bench: BenchApp;
  readonly load: LoadOptions;
}

export interface TokenVerificationResult {
  readonly rows: ResultRow[];
  readonly data: {
    readonly poolMax: number | null;
    readonly load: LoadOptions;
    readonly http: { healthz: LoadResult; whoamiSession: LoadResult; whoamiAdmin: LoadResult };
    readonly inProcess: {
      concurrent: { selectOne: LoadResult; authenticate: LoadResult };
      sequential: { selectOne: LoadResult; authenticate: LoadResult };
    };
  };
}

interface Issued {
  readonly token: string;
}

/** A tenant, a member user and an agent token for that user, all through the admin API. */
async function issueSessionToken(bench: BenchApp): Promise<string> {
  const { client, adminToken } = bench;
  const slug = `bench-tok-${randomBytes(3).toString('hex')}`;
  await client.expectJson(201, 'POST', '/v1/tenants', adminToken, { slug, name: 'Token benchmark' });
  const user = await client.expectJson<{ id: string }>(201, 'POST', `/v1/tenants/${slug}/users`, adminToken, {
    email: `agent@${slug}.example.com`,
    name: 'Bench Agent',
    role: 'member',
  });
  const issued = await client.expectJson<Issued>(201, 'POST', `/v1/tenants/${slug}/tokens`, adminToken, {
    userId: user.id,
    agentId: 'bench:agent',
    role: 'agent',
    projects: '*',
  });
  const whoami = await client.expectJson<{ kind: string }>(200, 'GET', '/v1/whoami', issued.token);
  if (whoami.kind !== 'session') throw new Error(`whoami answered kind "${whoami.kind}" for a session token`);
  return issued.token;
}

function expectStatus(expected: number, what: string) {
  return ({ status, body }: { status: number; body: string }): void => {
    if (status !== expected) throw new Error(`${what}: expected ${expected}, got ${status} ${body.slice(0, 300)}`);
  };
}

/**
 * Authenticated request throughput against an unauthenticated baseline over `inject`, then
 * the verifier alone in-process against the cheapest possible round trip on the same pool.
 */
export async function benchTokenVerification(input: TokenVerificationInput): Promise<TokenVerificationResult> {
  const { bench, load } = input;
  const { app, client, adminToken } = bench;
  const dataSource = app.get(DataSource);
  const verifier = app.get(TokenVerifier);
  const sessionToken = await issueSessionToken(bench);

  const settle = () => waitForIdlePool(dataSource);
  const healthzOk = expectStatus(200, 'GET /healthz');
  const whoamiOk = expectStatus(200, 'GET /v1/whoami');
  const http = await compareUnderLoad(
    {
      healthz: () => client.send('GET', '/healthz').then(healthzOk),
      whoamiSession: () => client.send('GET', '/v1/whoami', sessionToken).then(whoamiOk),
      whoamiAdmin: () => client.send('GET', '/v1/whoami', adminToken).then(whoamiOk),
    },
    load,
    settle,
  );

  const header = `Bearer ${sessionToken}`;
  const inProcessCases = {
    selectOne: async () => {
      await dataSource.query('SELECT 1');
    },
    authenticate: async () => {
      const principal = await verifier.authenticate(header);
      if (principal.kind !== 'session') throw new Error('authenticate did not return a session principal');
    },
  };
  const concurrent = await compareUnderLoad(inProcessCases, load, settle);
  const sequential = await compareUnderLoad(inProcessCases, { ...load, concurrency: 1 }, settle);
  await settle();
  const { healthz, whoamiSession, whoamiAdmin } = http;

  const c = load.concurrency;
  const healthzName = `GET /healthz (c=${c})`;
  const throughputRows = (name: string, result: LoadResult): ResultRow[] => [
    row(name, 'throughput', 'req/s', result.perSecond, { name: healthzName, value: healthz.perSecond }),
    row(name, 'latency p50', 'ms', result.latencyMs.p50, { name: healthzName, value: healthz.latencyMs.p50 }),
    row(name, 'latency p95', 'ms', result.latencyMs.p95, { name: healthzName, value: healthz.latencyMs.p95 }),
  ];
  const inProcessRows = (name: string, result: LoadResult, base: LoadResult, baseName: string): ResultRow[] => [
    row(name, 'throughput', 'calls/s', result.perSecond, { name: baseName, value: base.perSecond }),
    row(name, 'latency p50', 'ms', result.latencyMs.p50, { name: baseName, value: base.latencyMs.p50 }),
    row(name, 'latency p95', 'ms', result.latencyMs.p95, { name: baseName, value: base.latencyMs.p95 }),
  ];
  return {
    rows: [
      ...throughputRows(`GET /v1/whoami, session token (c=${c})`, whoamiSession),
      ...throughputRows(`GET /v1/whoami, admin token (c=${c})`, whoamiAdmin),
      ...inProcessRows(
        `TokenVerifier.authenticate (c=${c})`,
        concurrent.authenticate,
        concurrent.selectOne,
        `SELECT 1, app pool (c=${c})`,
      ),
      ...inProcessRows(
        'TokenVerifier.authenticate (c=1)',
        sequential.authenticate,
        sequential.selectOne,
        'SELECT 1, app pool (c=1)',
      ),
    ],
    data: {
      poolMax: poolMax(dataSource),
      load,
      http: { healthz, whoamiSession, whoamiAdmin },
      inProcess: {
        concurrent: { selectOne: concurrent.selectOne, authenticate: concurrent.authenticate },
        sequential: { selectOne: sequential.selectOne, authenticate: sequential.authenticate },
      },
    },
  };
}
