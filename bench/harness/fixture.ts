/**
 * What the harness benchmark runs against, as the code-harness e2e does: the api listening on
 * loopback (the built `cairn index` talks to it over HTTP), the real worker in-process (it
 * embeds the code passages and summarises the files), the built MCP gateway as its own process
 * (the tools are called over HTTP, as an agent calls them), and a tenant whose agent token
 * enables the harness toolset.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type INestApplicationContext } from '@nestjs/common';
import { loadConfig } from '@cairn/config';
import { JobQueue, QUEUE_NAMES, type QueueName } from '@cairn/jobs';
import { quotedSchema } from '@cairn/tenancy';
import { type CodeIndexSummary } from '@cairn/cli-code-index';
import { type ChildServer, startGatewayProcess } from '../gateway/processes';
import { RpcClient, type ToolResult } from '../gateway/rpc-client';
import { startWorker } from '../pipeline/fixture';
import {
  createSearchTenant,
  dropSearchTenant,
  type SearchApp,
  type SearchTenant,
  startSearchApp,
} from '../search/fixture';
import { databaseSettings } from '../lib/environment';

export interface Spawned {
  readonly ms: number;
  readonly stdout: string;
  readonly stderr: string;
  readonly code: number | null;
}

/** Runs a program to its end, timed from spawn to exit. */
export function spawnTimed(
  command: string,
  args: readonly string[],
  options: { cwd: string; env?: Record<string, string> },
): Promise<Spawned> {
  return new Promise((done, fail) => {
    const started = performance.now();
    const child = spawn(command, args, { cwd: options.cwd, env: options.env, stdio: ['ignore', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
    child.on('error', fail);
    child.on('close', (code) =>
      done({
        ms: performance.now() - started,
        stdout: Buffer.concat(out).toString('utf8'),
        stderr: Buffer.concat(err).toString('utf8'),
        code,
      }),
    );
  });
}

export interface HarnessWorld {
  readonly bench: SearchApp;
  readonly tenant: SearchTenant;
  /** Calls a tool on the gateway for the tenant's project; a tool error throws. */
  call(name: string, args: Record<string, unknown>): Promise<ToolResult>;
  /** `cairn index <root> --json` with the built CLI, timed. */
  index(): Promise<{ ms: number; summary: CodeIndexSummary }>;
  /** Resolves once the worker has no embedding or summary job left (two polls in a row). */
  drained(timeoutMs: number): Promise<void>;
  /** The index's code passages, and how many of them the worker has embedded. */
  passages(): Promise<{ total: number; embedded: number }>;
  close(): Promise<void>;
}

/** The worker queues the index feeds; the maintenance queue holds repeatable jobs and never empties. */
const FED_QUEUES: readonly QueueName[] = ['embeddings', 'summaries'];
const RATE_LIMIT = '1000000';

export async function openHarnessWorld(input: {
  readonly databaseUrl: string;
  readonly redisUrl: string;
  readonly root: string;
  readonly log: (line: string) => void;
}): Promise<HarnessWorld> {
  const { root, log } = input;
  const bench = await startSearchApp(input.databaseUrl, input.redisUrl, 'hash');
  const home = mkdtempSync(join(tmpdir(), 'cairn-bench-harness-'));
  let tenant: SearchTenant | undefined;
  let worker: INestApplicationContext | undefined;
  let gateway: ChildServer | undefined;
  let rpc: RpcClient | undefined;
  const close = async () => {
    rpc?.close();
    await gateway?.stop();
    await worker?.close();
    if (tenant) await dropSearchTenant(bench, tenant).catch(() => undefined);
    const jobs = bench.app.get(JobQueue, { strict: false });
    for (const name of QUEUE_NAMES) {
      await jobs
        .queue(name)
        .obliterate({ force: true })
        .catch(() => undefined);
    }
    await bench.close();
    rmSync(home, { recursive: true, force: true });
  };
  try {
    const target = await createSearchTenant(bench, 'harness', ['core', 'harness']);
    tenant = target;
    await bench.app.listen(0, '127.0.0.1');
    const apiUrl = await bench.app.getUrl();
    const masterKey = bench.config.secrets.masterKey?.toString('base64');
    const shared = {
      NODE_ENV: 'production',
      ...databaseSettings(input.databaseUrl),
      REDIS_URL: input.redisUrl,
      QUEUE_PREFIX: bench.queuePrefix,
      LOG_LEVEL: 'silent',
      EMBEDDING_PROVIDER: 'hash',
      ...(masterKey ? { CAIRN_MASTER_KEY: masterKey } : {}),
    };
    // No chat model: summaries are the deterministic outline, as on a deployment without one.
    worker = await startWorker(loadConfig('worker', shared));
    gateway = await startGatewayProcess({
      root,
      env: { ...shared, RATE_LIMIT_TOKEN_PER_MINUTE: RATE_LIMIT, RATE_LIMIT_TENANT_PER_MINUTE: RATE_LIMIT },
    });
    log(`harness: api at ${apiUrl}, gateway pid ${gateway.pid} at ${gateway.url}, worker in-process`);
    rpc = new RpcClient(gateway.url, target.token, 1);
    const client = rpc;
    const project = target.projectSlug;
    const env: Record<string, string> = {
      PATH: process.env.PATH ?? '',
      HOME: home,
      CAIRN_URL: apiUrl,
      CAIRN_TOKEN: target.token,
      CAIRN_PROJECT: project,
      CAIRN_CONFIG_DIR: join(home, 'config'),
      CAIRN_CACHE_DIR: join(home, 'cache'),
      CAIRN_STATE_DIR: join(home, 'state'),
    };
    const cli = join(root, 'dist', 'apps', 'cli', 'src', 'main.js');
    const jobs = bench.app.get(JobQueue, { strict: false });
    return {
      bench,
      tenant: target,
      call: (name, args) => client.callTool(name, { ...args, project }),
      index: async () => {
        const run = await spawnTimed(process.execPath, [cli, 'index', root, '--json'], { cwd: root, env });
        if (run.code !== 0) throw new Error(`cairn index exited ${run.code}: ${run.stderr.slice(0, 500)}`);
        return { ms: run.ms, summary: JSON.parse(run.stdout) as CodeIndexSummary };
      },
      drained: async (timeoutMs) => {
        const deadline = performance.now() + timeoutMs;
        let idle = 0;
        while (idle < 2) {
          const pending = await Promise.all(FED_QUEUES.map((name) => jobs.pendingCount(name)));
          idle = pending.every((count) => count === 0) ? idle + 1 : 0;
          if (performance.now() > deadline) throw new Error(`the worker still had jobs after ${timeoutMs / 1000} s`);
          await new Promise((resolve) => setTimeout(resolve, 500));
        }
      },
      passages: async () => {
        const [counts] = await bench.dataSource.query<{ total: number; embedded: number }[]>(
          `SELECT count(*)::int AS total, count(*) FILTER (WHERE embedded_hash IS NOT NULL)::int AS embedded
           FROM ${quotedSchema(target.tenant.schema)}.code_chunks`,
        );
        return counts ?? { total: 0, embedded: 0 };
      },
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}
