/**
 * The four things two replicas of each app behind HAProxy must survive (issue 27, part 4), each
 * returning what it measured and whether its goal held.
 */
import { type Queue } from 'bullmq';
import { RpcClient } from '../gateway/rpc-client';
import { type RunningHaproxy, untilServer } from './haproxy';
import { failureReasons, type McpLoad, storeOne } from './mcp-load';
import { type Replica } from './replica-set';

export interface Goal {
  readonly name: string;
  readonly held: boolean;
  readonly detail: string;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls `done` every 50 ms, at most `timeoutMs` (then goes on: the caller reports what it sees). */
async function waitUntil(done: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (!(await done()) && performance.now() < deadline) await sleep(50);
}

/** The backend a replica is a server of, or undefined for the worker (nothing routes to it). */
export const backendOf = (replica: Replica): string | undefined =>
  replica.app === 'api' ? 'api' : replica.app === 'mcp-gateway' ? 'gateway' : undefined;

/** SIGTERM, wait for the exit, start again, wait until HAProxy sees it UP. */
async function restartOne(replica: Replica, haproxy: RunningHaproxy): Promise<number | null> {
  const code = await replica.stop();
  await replica.start();
  const backend = backendOf(replica);
  if (backend) await untilServer(haproxy, backend, replica.name, 'UP');
  return code;
}

/** A REST client through the api frontend beside the MCP load, so the api replicas' restarts are under load too. */
export class RestLoad {
  private running = false;
  private loop: Promise<void> = Promise.resolve();
  calls = 0;
  readonly failures: string[] = [];

  constructor(
    private readonly url: string,
    private readonly adminToken: string,
  ) {}

  start(): void {
    this.running = true;
    this.loop = (async () => {
      while (this.running) {
        this.calls++;
        try {
          const response = await fetch(`${this.url}/v1/tenants`, {
            headers: { authorization: `Bearer ${this.adminToken}` },
            signal: AbortSignal.timeout(30_000),
          });
          await response.arrayBuffer();
          if (response.status !== 200) this.failures.push(`HTTP ${response.status}`);
        } catch (error) {
          const cause = error instanceof Error && error.cause instanceof Error ? error.cause : error;
          this.failures.push(cause instanceof Error ? cause.message : String(cause));
        }
      }
    })();
  }

  async stop(): Promise<void> {
    this.running = false;
    await this.loop;
  }
}

export async function rollingRestart(input: {
  replicas: readonly Replica[];
  haproxy: RunningHaproxy;
  load: McpLoad;
  rest: RestLoad;
  log: (line: string) => void;
}) {
  const { load, rest } = input;
  const from = performance.now();
  const restBefore = { calls: rest.calls, failures: rest.failures.length };
  const steps: { replica: string; exitCode: number | null; seconds: number; failedCalls: number }[] = [];
  for (const replica of input.replicas) {
    const began = performance.now();
    const exitCode = await restartOne(replica, input.haproxy);
    const failedCalls = load.startedBetween(began, performance.now()).filter((call) => call.error !== undefined).length;
    steps.push({ replica: replica.name, exitCode, seconds: (performance.now() - began) / 1000, failedCalls });
    input.log(
      `replicas: restarted ${replica.name} (exit ${exitCode}) in ${steps.at(-1)?.seconds.toFixed(1)} s, ` +
        `${failedCalls} failed calls`,
    );
  }
  const to = performance.now();
  const calls = load.startedBetween(from, to);
  const failed = calls.filter((call) => call.error !== undefined);
  const restFailures = rest.failures.slice(restBefore.failures);
  const goal: Goal = {
    name: 'rolling restart: 0 failed calls',
    held: failed.length === 0 && restFailures.length === 0 && steps.every((step) => step.exitCode === 0),
    detail: `${failed.length} of ${calls.length} MCP calls and ${restFailures.length} of ${rest.calls - restBefore.calls} REST calls failed`,
  };
  return {
    goal,
    seconds: (to - from) / 1000,
    mcpCalls: calls.length,
    mcpFailed: failed.length,
    restCalls: rest.calls - restBefore.calls,
    restFailed: restFailures.length,
    reasons: { ...failureReasons(failed), ...Object.fromEntries(restFailures.map((reason) => [`REST ${reason}`, 1])) },
    steps,
  };
}

export async function killOneGateway(input: { gateway: Replica; haproxy: RunningHaproxy; load: McpLoad }) {
  const { gateway, haproxy, load } = input;
  const sessionsOnVictim = (await haproxy.serverStates('gateway')).get(gateway.name)?.sessions ?? 0;
  const killedAt = performance.now();
  await gateway.kill();
  // SIGKILL lands a moment after it is sent: a call that started before the exit was seen may
  // still have reached the process, so "after the kill" starts once it is certainly gone.
  const diedAt = performance.now();
  await untilServer(haproxy, 'gateway', gateway.name, 'DOWN');
  // Calls keep arriving while the dead server is DOWN; then it comes back.
  await sleep(2_000);
  const until = performance.now();
  await gateway.start();
  await untilServer(haproxy, 'gateway', gateway.name, 'UP');
  const inFlight = load.calls.filter((call) => call.startedAt < diedAt && call.endedAt > killedAt);
  const failedInFlight = inFlight.filter((call) => call.error !== undefined);
  const after = load.startedBetween(diedAt, until);
  const failedAfter = after.filter((call) => call.error !== undefined);
  const goal: Goal = {
    name: 'kill -9 of a gateway: only calls in flight fail',
    held: failedAfter.length === 0 && failedInFlight.length <= inFlight.length,
    detail:
      `${failedInFlight.length} failed of ${inFlight.length} in flight at the kill (across both gateways; ` +
      `${sessionsOnVictim} on the killed one per HAProxy just before; the exit was seen ${(diedAt - killedAt).toFixed(0)} ms after SIGKILL)` +
      `; ${failedAfter.length} of ${after.length} calls started after it failed`,
  };
  return {
    goal,
    inFlight: inFlight.length,
    sessionsOnVictim,
    failedInFlight: failedInFlight.length,
    startedAfter: after.length,
    failedAfter: failedAfter.length,
    reasons: failureReasons([...failedInFlight, ...failedAfter]),
  };
}

export async function restartWorkersWithQueuedJobs(input: {
  workers: readonly Replica[];
  haproxy: RunningHaproxy;
  gatewayUrl: string;
  token: string;
  project: string;
  burst: number;
  queue: Queue;
  /** How many of `ids` have no embedding yet. */
  unembedded: (ids: readonly string[]) => Promise<number>;
  log: (line: string) => void;
}) {
  const depth = async () => {
    const counts = await input.queue.getJobCounts('waiting', 'active', 'delayed', 'prioritized');
    return Object.values(counts).reduce((sum, n) => sum + n, 0);
  };
  const [first, second] = input.workers;
  if (!first || !second) throw new Error('two workers are needed');
  // With both workers up the hash embedder keeps pace with the stores and no queue forms: the
  // burst lands while both are stopped, so every worker start below meets a backlog.
  const depths: { moment: string; depth: number }[] = [];
  for (const worker of input.workers) await worker.stop();
  const ids: string[] = [];
  const clients = Array.from({ length: 8 }, () => new RpcClient(input.gatewayUrl, input.token, 1));
  let next = 0;
  await Promise.all(
    clients.map(async (client) => {
      while (next < input.burst) {
        next++;
        ids.push(await storeOne(client, input.project));
      }
    }),
  );
  for (const client of clients) client.close();
  const backlog = await depth();
  depths.push({ moment: 'after the burst, both workers stopped', depth: backlog });
  // worker1 starts on the backlog and is SIGTERMed mid-queue (its active jobs go back); worker2
  // and worker1 then start again and finish it.
  await first.start();
  await waitUntil(async () => (await depth()) < backlog || backlog === 0, 60_000);
  depths.push({ moment: `${first.name} working`, depth: await depth() });
  await first.stop();
  depths.push({ moment: `${first.name} stopped mid-queue`, depth: await depth() });
  await second.start();
  await first.start();
  depths.push({ moment: 'both started again', depth: await depth() });
  input.log(`replicas: queue depth ${depths.map((d) => `${d.moment}: ${d.depth}`).join(', ')}`);
  const began = performance.now();
  let left = await input.unembedded(ids);
  while ((left > 0 || (await depth()) > 0) && performance.now() - began < 120_000) {
    await sleep(250);
    left = await input.unembedded(ids);
  }
  const finalDepth = await depth();
  depths.push({ moment: 'at the end', depth: finalDepth });
  const goal: Goal = {
    name: 'worker restart with queued jobs: every stored memory embedded',
    held: left === 0 && finalDepth === 0,
    detail:
      `${ids.length - left} of ${ids.length} burst memories embedded; queue depth ${backlog} after the burst, ` +
      `${depths[2]?.depth} when ${first.name} was stopped mid-queue, ${finalDepth} at the end`,
  };
  return { goal, stored: ids.length, unembedded: left, depths, drainSeconds: (performance.now() - began) / 1000 };
}

/** `tools/call` outcome of one call: `ok`, `unauthorized` (401/403), `rate-limited`, or the error's message. */
export async function outcomeOf(call: Promise<unknown>): Promise<string> {
  try {
    await call;
    return 'ok';
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    if (/HTTP 40[13]/.test(message)) return 'unauthorized';
    if (/HTTP 429|rate limit/i.test(message)) return 'rate-limited';
    return message.slice(0, 120);
  }
}
