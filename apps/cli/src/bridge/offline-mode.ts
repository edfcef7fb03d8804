import {
  type CallToolResult,
  isJSONRPCResultResponse,
  type JSONRPCRequest,
  type JSONRPCResponse,
} from '@modelcontextprotocol/sdk/types.js';
import { type CairnApi } from '../api/cairn-client';
import { syncChangeFeed } from '../offline/change-feed';
import { type MemoryView } from '../offline/memory-cache.repository';
import { type OfflineStore } from '../offline/offline-store';
import { apiTransport } from '../offline/rest-call';
import { replayQueue, type ReplayOptions, type ReplayReport } from '../offline/write-replay';
import { QueueFullError } from '../offline/write-queue.repository';
import { cachedBriefing, cachedRecall, queuedAnswer, toolError, widenToolList } from './offline-answers';
import { type RelayInterceptor } from './relay';
import { queueableCall, QUEUEABLE_TOOLS, type ToolArguments, withIdempotencyKey } from './tool-writes';

export interface OfflineModeOptions {
  readonly log: (line: string) => void;
}

/**
 * How long a write waits for another process (a hook, `cairn sync`, another bridge) replaying
 * the queue before it queues behind their writes: the others' writes go first either way.
 */
const REPLAY_WAIT_MS = 10_000;

interface ToolCallParams {
  name: string;
  arguments?: ToolArguments;
}

/**
 * The offline layer of `cairn mcp` around the relay (relay.ts): it caches what the server
 * answers (tool catalog, recalled and written memories, briefings), answers from that cache
 * when the server cannot be reached, queues writes then, and replays the queue (before the
 * next write, on a timer, at start) and follows the change feed when the server is back.
 */
export class OfflineMode implements RelayInterceptor {
  protocolVersion?: string;
  /** Projects this session used: the change feed keeps their caches current. */
  readonly projects = new Set<string>();
  private initializeResult?: Record<string, unknown>;
  private replaying?: Promise<ReplayReport | undefined>;
  private syncing?: Promise<void>;
  private offline = false;

  constructor(
    readonly store: OfflineStore,
    private readonly api: CairnApi,
    private readonly options: OfflineModeOptions,
  ) {
    const project = store.identity.defaultProject;
    if (project) this.projects.add(project);
  }

  async beforeSend(request: JSONRPCRequest): Promise<JSONRPCRequest | JSONRPCResponse> {
    if (request.method !== 'tools/call') return request;
    const params = request.params as unknown as ToolCallParams;
    const args = params.arguments ?? {};
    const project = this.store.projectOf(typeof args.project === 'string' ? args.project : undefined);
    if (project) this.projects.add(project);
    if (!QUEUEABLE_TOOLS.has(params.name)) return request;
    const keyed = withIdempotencyKey(params.name, args);
    const prepared = { ...request, params: { ...request.params, arguments: keyed } };
    // Writes keep their order: the ones queued earlier go first, or this one queues behind them.
    if (this.store.queue.counts().pending > 0) {
      const report = await this.replay({ waitForLockMs: REPLAY_WAIT_MS });
      if (report?.stopped && this.store.queue.counts().pending > 0) {
        if (report.stopped.unavailable) return (await this.onUnreachable(prepared, report.stopped.reason))!;
        if (report.stopped.busy) {
          const answer = this.queueWrite(params.name, keyed, report.stopped.reason);
          return { jsonrpc: '2.0', id: request.id, result: answer };
        }
      }
    }
    return prepared;
  }

  async onAnswer(request: JSONRPCRequest, answer: JSONRPCResponse): Promise<JSONRPCResponse> {
    if (!isJSONRPCResultResponse(answer)) return answer;
    this.markOnline();
    const result = answer.result as Record<string, unknown>;
    try {
      if (request.method === 'initialize') this.initializeResult = result;
      if (request.method === 'tools/list') {
        const initialize = this.initializeResult ?? this.store.saved.toolCatalog()?.initialize;
        if (initialize && !request.params?.cursor) this.store.saved.saveToolCatalog({ initialize, tools: result });
        return { ...answer, result: widenToolList(result) };
      }
      if (request.method === 'tools/call') {
        const call = request.params as unknown as ToolCallParams;
        const toolResult = result as CallToolResult;
        if (toolResult.isError && /^Error \(unavailable\)/.test(textOf(toolResult))) {
          // The gateway is up but its database is not: the same as unreachable for what can be answered here.
          return (await this.onUnreachable(request, textOf(toolResult))) ?? answer;
        }
        if (!toolResult.isError) this.remember(call, toolResult);
      }
    } catch (error) {
      this.options.log(`could not update the offline cache: ${(error as Error).message}`);
    }
    return answer;
  }

  onUnreachable(request: JSONRPCRequest, reason: string): Promise<JSONRPCResponse | undefined> {
    return Promise.resolve(this.answerUnreachable(request, reason));
  }

  private answerUnreachable(request: JSONRPCRequest, reason: string): JSONRPCResponse | undefined {
    if (!this.offline) this.options.log(`the server is unreachable (${reason}); answering from the local cache`);
    this.offline = true;
    const answer = (result: Record<string, unknown>): JSONRPCResponse => ({ jsonrpc: '2.0', id: request.id, result });
    switch (request.method) {
      case 'initialize': {
        const catalog = this.store.saved.toolCatalog();
        if (!catalog) return undefined;
        this.protocolVersion = String(catalog.initialize.protocolVersion);
        return answer(catalog.initialize);
      }
      case 'tools/list': {
        const catalog = this.store.saved.toolCatalog();
        return catalog && answer(widenToolList(catalog.tools));
      }
      case 'ping':
        return answer({});
      case 'tools/call':
        return answer(this.answerToolOffline(request.params as unknown as ToolCallParams, reason));
      default:
        return undefined;
    }
  }

  /** Replays the queue once at a time; logs what it did. Undefined when nothing was pending. */
  replay(options: ReplayOptions = {}): Promise<ReplayReport | undefined> {
    if (this.replaying) return this.replaying;
    // Checked before the replay starts, not inside it: an async function with nothing to await
    // runs to its end at once, and its `finally` would clear the field before it was set.
    if (this.store.queue.counts().pending === 0) return Promise.resolve(undefined);
    const running = (async () => {
      const report = await replayQueue(this.store, apiTransport(this.api), options);
      this.logReplay(report);
      if (!report.stopped) this.markOnline();
      return report;
    })();
    this.replaying = running;
    const done = () => {
      if (this.replaying === running) this.replaying = undefined;
    };
    running.then(done, done);
    return running;
  }

  /** Replay, then the change feed of every project used: at start and on the timer. Never throws. */
  sync(): Promise<void> {
    this.syncing ??= (async () => {
      try {
        const report = await this.replay();
        if (report?.stopped?.unavailable) return;
        for (const project of this.projects) await syncChangeFeed(this.store, this.api, project);
        this.markOnline();
      } catch (error) {
        this.options.log(`background sync: ${(error as Error).message}`);
      } finally {
        this.syncing = undefined;
      }
    })();
    return this.syncing;
  }

  /** Waits for a replay or sync still running (before the bridge closes the store). */
  async idle(): Promise<void> {
    await Promise.allSettled([this.replaying, this.syncing]);
  }

  private answerToolOffline(call: ToolCallParams, reason: string): CallToolResult {
    const args = call.arguments ?? {};
    const project = this.store.projectOf(typeof args.project === 'string' ? args.project : undefined);
    if (call.name === 'memory_recall' && project) return cachedRecall(this.store, project, args, reason);
    if (call.name === 'recall_context' && project) {
      return (
        cachedBriefing(this.store, project, reason) ??
        toolError(`[offline] The server is unreachable (${reason}) and no briefing of ${project} is cached yet.`)
      );
    }
    if (QUEUEABLE_TOOLS.has(call.name)) {
      return this.queueWrite(call.name, args, `the server is unreachable (${reason})`);
    }
    return toolError(
      `[offline] The server is unreachable (${reason}); ${call.name} needs it. ` +
        'Offline, memory_recall and recall_context answer from the local cache and writes are queued.',
    );
  }

  /** Queues a write tool's call and answers it as queued, or says why it cannot be (the cap, a blind update). */
  private queueWrite(tool: string, args: ToolArguments, because: string): CallToolResult {
    const queueable = queueableCall(this.store, tool, args);
    if (!queueable.ok) return toolError(`[offline] ${queueable.message}`);
    try {
      const write = this.store.queue.enqueue(queueable.project, queueable.operation, {
        idempotencyKey: queueable.idempotencyKey,
        max: this.store.queueMax,
      });
      return queuedAnswer(write, this.store.queue.counts().pending, because);
    } catch (error) {
      if (error instanceof QueueFullError) return toolError(`[offline] ${error.message}`);
      throw error;
    }
  }

  /** Keeps what an answer tells about memories and briefings. */
  private remember(call: ToolCallParams, result: CallToolResult): void {
    const args = call.arguments ?? {};
    const project = this.store.projectOf(typeof args.project === 'string' ? args.project : undefined);
    if (!project) return;
    const structured = (result.structuredContent ?? {}) as Record<string, unknown>;
    switch (call.name) {
      case 'memory_recall': {
        const results = (structured.results ?? []) as { memory: MemoryView }[];
        this.store.memories.put(
          project,
          results.map((item) => item.memory),
          'recall',
        );
        break;
      }
      case 'memory_get':
        if (structured.id) this.store.memories.put(project, [structured as unknown as MemoryView], 'recall');
        break;
      case 'memory_store':
      case 'memory_update':
        if (structured.memory) this.store.memories.put(project, [structured.memory as MemoryView], 'write');
        break;
      case 'memory_delete':
        if (typeof args.id === 'string') this.store.memories.remove(args.id);
        break;
      case 'recall_context':
        this.store.saved.saveBriefing(project, { text: textOf(result), structured });
        break;
    }
  }

  private markOnline(): void {
    if (!this.offline) return;
    this.offline = false;
    this.options.log('the server answers again');
    // Whatever was queued meanwhile goes now, not only at the next write.
    void this.sync();
  }

  private logReplay(report: ReplayReport): void {
    const count = (outcome: string) => report.writes.filter((write) => write.outcome === outcome).length;
    const sent = count('stored') + count('already_applied');
    const held = report.writes.filter((write) => write.outcome === 'conflict' || write.outcome === 'rejected');
    if (sent > 0) this.options.log(`replayed ${sent} queued write(s); ${report.pending} still pending`);
    for (const write of held) {
      this.options.log(`queued write #${write.seq} (${write.description}) held as ${write.outcome}: ${write.reason}`);
    }
  }
}

function textOf(result: CallToolResult): string {
  const first = result.content?.[0];
  return first && first.type === 'text' ? first.text : '';
}
