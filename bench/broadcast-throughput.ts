import { randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import { type BenchApp } from './lib/app';
import { compareUnderLoad, type LoadOptions, type LoadResult } from './lib/load';
import { waitForIdlePool } from './lib/pool';
import { type ResultRow, row } from './lib/report';

/** Agents posting and reading at once on one project's channel (issue 14 §4). */
const AGENTS = 16;
const READ_PAGE = 50;

export interface BroadcastInput {
  readonly bench: BenchApp;
  /** Seconds and warm-up of the run; the concurrency is always one request in flight per agent. */
  readonly load: LoadOptions;
}

export interface BroadcastResult {
  readonly rows: ResultRow[];
  readonly notes: string[];
  readonly data: {
    readonly agents: number;
    readonly load: LoadOptions;
    readonly post: { broadcast: LoadResult; sessionEvent: LoadResult };
    readonly read: { broadcast: LoadResult; sessionEvents: LoadResult; pageSize: number };
    readonly chain: { valid: boolean; entries: number };
  };
}

function expectStatus(expected: number, what: string) {
  return ({ status, body }: { status: number; body: string }): void => {
    if (status !== expected) throw new Error(`${what}: expected ${expected}, got ${status} ${body.slice(0, 300)}`);
  };
}

/**
 * broadcast_post and broadcast_read over REST with 16 agents (one token each, one request in
 * flight each) on one project, against a baseline measured in the same interleaved slices:
 * session events, the project-wide log every agent writes and reads through the same path
 * (authentication, tenant transaction, secret scan, one indexed insert; newest 50 by index).
 * What the ratio then shows is the channel's own cost: the per-project lock that serialises
 * posters, the head read and the SHA-256 link, the per-agent rate limit in Redis; on reading,
 * the acknowledgement join and the injection flags.
 */
export async function benchBroadcast(input: BroadcastInput): Promise<BroadcastResult> {
  const { bench } = input;
  const { client, adminToken } = bench;
  const load: LoadOptions = { ...input.load, concurrency: AGENTS };
  const slug = `bench-bc-${randomBytes(3).toString('hex')}`;
  await client.expectJson(201, 'POST', '/v1/tenants', adminToken, { slug, name: 'Broadcast benchmark' });
  const project = 'coordination';
  await client.expectJson(201, 'POST', `/v1/tenants/${slug}/projects`, adminToken, { slug: project, name: 'Channel' });
  const tokens: string[] = [];
  for (let i = 0; i < AGENTS; i += 1) {
    const issued = await client.expectJson<{ token: string }>(201, 'POST', `/v1/tenants/${slug}/tokens`, adminToken, {
      role: 'agent',
      agentId: `bench:agent-${i}`,
      projects: [project],
    });
    tokens.push(issued.token);
  }
  // Round robin: with 16 in flight, each request is a different agent's.
  let turn = 0;
  const nextToken = () => tokens[turn++ % AGENTS];
  const base = `/v1/projects/${project}`;
  const posted = expectStatus(201, 'POST broadcasts');
  const recorded = expectStatus(201, 'POST events');
  const read = expectStatus(200, 'GET broadcasts');
  const listed = expectStatus(200, 'GET events');
  let n = 0;
  const summary = () => `agent status ${(n += 1)}: working on the billing retry, tests next`;

  const settle = () => waitForIdlePool(bench.app.get(DataSource));
  const post = await compareUnderLoad(
    {
      broadcast: () =>
        client.send('POST', `${base}/broadcasts`, nextToken(), { type: 'STATUS', summary: summary() }).then(posted),
      sessionEvent: () =>
        client.send('POST', `${base}/events`, nextToken(), { kind: 'decision', summary: summary() }).then(recorded),
    },
    load,
    settle,
  );
  const page = await client.expectJson<{ head: number }>(200, 'GET', `${base}/broadcasts?limit=1`, tokens[0]);
  const after = Math.max(0, page.head - READ_PAGE);
  const reads = await compareUnderLoad(
    {
      broadcast: () =>
        client.send('GET', `${base}/broadcasts?after=${after}&limit=${READ_PAGE}`, nextToken()).then(read),
      sessionEvents: () => client.send('GET', `${base}/events?limit=${READ_PAGE}`, nextToken()).then(listed),
    },
    load,
    settle,
  );
  const chain = await client.expectJson<{ valid: boolean; entries: number }>(
    200,
    'GET',
    `${base}/broadcasts/verify`,
    tokens[0],
  );
  if (!chain.valid || chain.entries !== page.head) {
    throw new Error(`the channel does not verify after the run: ${JSON.stringify(chain)} (head ${page.head})`);
  }

  const c = `c=${AGENTS}`;
  const postBase = `POST session event (${c})`;
  const readBase = `GET ${READ_PAGE} session events (${c})`;
  const rows = (name: string, result: LoadResult, baseName: string, baseline: LoadResult) => [
    row(name, 'throughput', 'req/s', result.perSecond, { name: baseName, value: baseline.perSecond }),
    row(name, 'latency p50', 'ms', result.latencyMs.p50, { name: baseName, value: baseline.latencyMs.p50 }),
    row(name, 'latency p95', 'ms', result.latencyMs.p95, { name: baseName, value: baseline.latencyMs.p95 }),
  ];
  return {
    rows: [
      ...rows(`POST broadcast, 16 agents, one project (${c})`, post.broadcast, postBase, post.sessionEvent),
      ...rows(`GET ${READ_PAGE} broadcasts (${c})`, reads.broadcast, readBase, reads.sessionEvents),
    ],
    notes: [
      `broadcast: ${AGENTS} agent tokens on one project, one request in flight each; the baseline is the session-event ` +
        `log (same auth, tenant transaction and secret scan, no lock or chain); the chain of ${chain.entries} ` +
        'messages verified after the run.',
    ],
    data: {
      agents: AGENTS,
      load,
      post: { broadcast: post.broadcast, sessionEvent: post.sessionEvent },
      read: { broadcast: reads.broadcast, sessionEvents: reads.sessionEvents, pageSize: READ_PAGE },
      chain,
    },
  };
}
