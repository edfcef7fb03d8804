/**
 * Steady MCP load through HAProxy: `clients` closed-loop clients, each on its own keep-alive
 * connection, alternating `memory_store` and `memory_recall` (JSON-RPC `tools/call` POSTs over
 * Streamable HTTP with a real session token). Every call is recorded with when it started and
 * ended and why it failed, so a scenario can count the failures inside its own window.
 */
import { corpusMemory } from '../search/corpus';
import { RpcClient } from '../gateway/rpc-client';

export interface CallRecord {
  readonly tool: 'memory_store' | 'memory_recall';
  readonly startedAt: number;
  endedAt: number;
  error?: string;
}

export interface LoadTarget {
  readonly url: string;
  readonly token: string;
  readonly project: string;
}

/** Stored memories come from beyond any seeded corpus, so none repeats another. */
const STORE_OFFSET = 5_000_000;
let nextStore = 0;

/** A distinct memory_store argument set, as an agent sends it. */
export function storeArguments(project: string): Record<string, unknown> {
  const { content, category, tags, keywords, importance, confidence } = corpusMemory(STORE_OFFSET + nextStore++);
  return { content, category, tags, keywords, importance, confidence, project };
}

/** One memory_store through `client`; resolves with the stored memory's id. */
export async function storeOne(client: RpcClient, project: string): Promise<string> {
  const result = await client.callTool('memory_store', storeArguments(project));
  const memory = result.structuredContent?.memory as { id?: unknown } | undefined;
  if (typeof memory?.id !== 'string') throw new Error(`memory_store: no memory id in ${JSON.stringify(result)}`);
  return memory.id;
}

export class McpLoad {
  readonly calls: CallRecord[] = [];
  readonly storedIds: string[] = [];
  private running = false;
  private loops: Promise<void>[] = [];
  private readonly clients: RpcClient[] = [];

  constructor(
    private readonly target: LoadTarget,
    private readonly clientCount: number,
  ) {}

  start(): void {
    this.running = true;
    for (let i = 0; i < this.clientCount; i++) {
      const client = new RpcClient(this.target.url, this.target.token, 1);
      this.clients.push(client);
      this.loops.push(this.loop(client, i));
    }
  }

  async stop(): Promise<void> {
    this.running = false;
    await Promise.all(this.loops);
    this.loops = [];
    for (const client of this.clients.splice(0)) client.close();
  }

  /** Calls that started in [from, to). */
  startedBetween(from: number, to: number): CallRecord[] {
    return this.calls.filter((call) => call.startedAt >= from && call.startedAt < to);
  }

  /** Calls in flight at `moment`: started before it, not yet answered. */
  inFlightAt(moment: number): CallRecord[] {
    return this.calls.filter((call) => call.startedAt <= moment && call.endedAt > moment);
  }

  private async loop(client: RpcClient, index: number): Promise<void> {
    let store = index % 2 === 0;
    while (this.running) {
      const record: CallRecord = {
        tool: store ? 'memory_store' : 'memory_recall',
        startedAt: performance.now(),
        endedAt: Number.POSITIVE_INFINITY,
      };
      this.calls.push(record);
      try {
        if (store) this.storedIds.push(await storeOne(client, this.target.project));
        else
          await client.callTool('memory_recall', {
            query: 'replica restart drain',
            limit: 5,
            project: this.target.project,
          });
      } catch (error) {
        record.error = error instanceof Error ? error.message.slice(0, 200) : String(error);
      }
      record.endedAt = performance.now();
      store = !store;
    }
  }
}

/** Failed calls grouped by their message (first 80 characters), for the report. */
export function failureReasons(calls: readonly CallRecord[]): Record<string, number> {
  const reasons: Record<string, number> = {};
  for (const call of calls) {
    if (call.error === undefined) continue;
    const key = call.error.slice(0, 80);
    reasons[key] = (reasons[key] ?? 0) + 1;
  }
  return reasons;
}
