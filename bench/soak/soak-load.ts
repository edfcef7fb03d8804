/**
 * The soak's load: MCP calls at a fixed rate (open loop: a call starts on schedule whether or
 * not earlier ones have answered, as independent agents do), three recalls to each store, over
 * keep-alive sockets. Also the closed-loop probe that measures one gateway's capacity first.
 */
import { RpcClient } from '../gateway/rpc-client';
import { storeArguments } from '../replicas/mcp-load';

export interface SoakCall {
  readonly startedAt: number;
  endedAt: number;
  failed: boolean;
  reason?: string;
}

export interface SoakTarget {
  readonly url: string;
  readonly token: string;
  readonly project: string;
}

const RECALL_QUERIES = [
  'deploy script staging',
  'database migration rollback',
  'who owns the billing service',
  'retry policy for the queue',
  'why did we choose postgres',
];

/** One call of the mix: every fourth a store, the rest recalls. */
async function call(client: RpcClient, target: SoakTarget, n: number): Promise<void> {
  if (n % 4 === 3) {
    await client.callTool('memory_store', storeArguments(target.project));
    return;
  }
  await client.callTool('memory_recall', {
    query: RECALL_QUERIES[n % RECALL_QUERIES.length],
    limit: 5,
    project: target.project,
  });
}

/** Calls per second `concurrency` closed-loop clients sustain for `seconds`. */
export async function measureCapacity(target: SoakTarget, concurrency: number, seconds: number): Promise<number> {
  const client = new RpcClient(target.url, target.token, concurrency);
  let done = 0;
  let n = 0;
  const stopAt = performance.now() + seconds * 1000;
  const started = performance.now();
  try {
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (performance.now() < stopAt) {
          await call(client, target, n++);
          done++;
        }
      }),
    );
  } finally {
    client.close();
  }
  return done / ((performance.now() - started) / 1000);
}

/** Fixed-rate calls until `stop()`; every call is recorded with when it started and ended. */
export class OpenLoop {
  readonly calls: SoakCall[] = [];
  private readonly client: RpcClient;
  private timer: NodeJS.Timeout | undefined;
  private readonly inFlight = new Set<Promise<void>>();
  private n = 0;

  constructor(
    private readonly target: SoakTarget,
    private readonly perSecond: number,
    maxSockets = 256,
  ) {
    this.client = new RpcClient(target.url, target.token, maxSockets);
  }

  start(): void {
    const began = performance.now();
    let issued = 0;
    // A 10 ms tick issues whatever the schedule owes since the start, so a late tick catches up
    // instead of lowering the rate.
    this.timer = setInterval(() => {
      const owed = Math.floor(((performance.now() - began) / 1000) * this.perSecond) - issued;
      for (let i = 0; i < owed; i++, issued++) this.issue();
    }, 10);
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await Promise.allSettled([...this.inFlight]);
    this.client.close();
  }

  private issue(): void {
    const record: SoakCall = { startedAt: performance.now(), endedAt: Number.POSITIVE_INFINITY, failed: false };
    this.calls.push(record);
    const running = call(this.client, this.target, this.n++)
      .catch((error: unknown) => {
        record.failed = true;
        record.reason = error instanceof Error ? error.message.slice(0, 160) : String(error);
      })
      .finally(() => {
        record.endedAt = performance.now();
        this.inFlight.delete(running);
      });
    this.inFlight.add(running);
  }
}
