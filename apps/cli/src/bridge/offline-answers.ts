import { type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { type CacheSearchFilters } from '../offline/memory-cache.repository';
import { type OfflineStore } from '../offline/offline-store';
import { describeWrite, type QueuedWrite } from '../offline/write-operations';
import { QUEUEABLE_TOOLS, type ToolArguments } from './tool-writes';

/** What every answer from the cache carries in its structured content: where it came from and how old it is. */
export interface CachedMark {
  readonly source: 'local-cache';
  /** When the data was fetched from the server (the oldest item of the answer). */
  readonly at: string;
  readonly ageSeconds: number;
  /** Why the server was not asked. */
  readonly reason: string;
}

function mark(fetchedAt: number, reason: string): CachedMark {
  return {
    source: 'local-cache',
    at: new Date(fetchedAt).toISOString(),
    ageSeconds: Math.max(0, Math.round((Date.now() - fetchedAt) / 1000)),
    reason,
  };
}

/** "3 min", "2 h", "4 d": an age a person reads at a glance. */
export function ageText(seconds: number): string {
  if (seconds < 90) return `${seconds} s`;
  if (seconds < 90 * 60) return `${Math.round(seconds / 60)} min`;
  if (seconds < 36 * 3600) return `${Math.round(seconds / 3600)} h`;
  return `${Math.round(seconds / 86400)} d`;
}

/** A tool error result: the agent reads why, the call is not retried as a protocol error. */
export function toolError(text: string): CallToolResult {
  return { isError: true, content: [{ type: 'text', text }] };
}

/**
 * `memory_recall` from the cache: FTS5 over the memories this identity recalled, wrote or got
 * from the change feed in the project, best first; marked as cached in the text's first line
 * and in `cached` (with the data's age), the mode reported as keyword.
 */
export function cachedRecall(
  store: OfflineStore,
  project: string,
  args: ToolArguments,
  reason: string,
): CallToolResult {
  const query = typeof args.query === 'string' ? args.query : '';
  const limit = typeof args.limit === 'number' ? Math.min(50, Math.max(1, Math.trunc(args.limit))) : 10;
  const filters = (typeof args.filters === 'object' && args.filters ? args.filters : {}) as CacheSearchFilters;
  const results = store.memories.search(project, query, limit, filters);
  const oldest = results.length > 0 ? Math.min(...results.map((result) => result.cachedAt)) : Date.now();
  const cached = mark(oldest, reason);
  const note = `answered from the local cache of ${project} (data up to ${ageText(cached.ageSeconds)} old): the server is unreachable`;
  const lines = [
    `[offline] ${note}. ${results.length} cached result(s); newer memories may exist.`,
    ...results.map(
      ({ memory, score }, index) =>
        `${index + 1}. [${memory.category}] ${memory.content} (id ${memory.id}, v${memory.version}, score ${score.toFixed(3)})`,
    ),
  ];
  return {
    content: [{ type: 'text', text: lines.join('\n') }],
    structuredContent: {
      results: results.map(({ memory, score }) => ({ memory, score })),
      report: {
        requestedMode: typeof args.mode === 'string' ? args.mode : 'hybrid',
        mode: 'keyword',
        notes: [note],
        embeddingModel: null,
      },
      cached,
    },
  };
}

/** `recall_context` from the last briefing of the project, marked as cached; undefined when there is none. */
export function cachedBriefing(store: OfflineStore, project: string, reason: string): CallToolResult | undefined {
  const briefing = store.saved.briefing(project);
  if (!briefing) return undefined;
  const cached = mark(briefing.fetchedAt, reason);
  const { text: _text, reviewOutcomes: _reviewOutcomes, ...structured } = briefing.structured ?? {};
  return {
    content: [
      {
        type: 'text',
        text:
          `[offline] The server is unreachable: this is the last briefing of ${project}, from ${cached.at} ` +
          `(${ageText(cached.ageSeconds)} ago); what changed since is not in it.\n\n${briefing.text}`,
      },
    ],
    ...(briefing.structured ? { structuredContent: { ...structured, cached } } : {}),
  };
}

/**
 * The answer to a write the bridge queued: plainly not stored yet, with its place in the queue
 * and `because` (the server unreachable, or earlier writes another process is replaying).
 */
export function queuedAnswer(write: QueuedWrite, pending: number, because: string): CallToolResult {
  return {
    content: [
      {
        type: 'text',
        text:
          `[offline] QUEUED, NOT STORED YET: ${describeWrite(write.operation)} in ${write.project} is write #${write.seq} ` +
          `of the local queue (${pending} pending) because ${because}. It will be sent in order, after the writes ` +
          'queued before it; do not repeat this call. `cairn queue` lists the queue.',
      },
    ],
    structuredContent: {
      queued: {
        seq: write.seq,
        project: write.project,
        operation: write.operation.kind,
        idempotencyKey: write.idempotencyKey,
        queuedAt: new Date(write.createdAt).toISOString(),
        pending,
      },
    },
  };
}

const QUEUED_SCHEMA = {
  type: 'object',
  description: 'Set instead of the result when the bridge queued the write offline: not stored yet',
  properties: {
    seq: { type: 'integer' },
    project: { type: 'string' },
    operation: { type: 'string' },
    idempotencyKey: { type: 'string' },
    queuedAt: { type: 'string' },
    pending: { type: 'integer' },
  },
  required: ['seq', 'project', 'operation', 'queuedAt'],
};

const CACHED_SCHEMA = {
  type: 'object',
  description: 'Set when the bridge answered from its local cache (server unreachable): source, at, ageSeconds, reason',
};

interface ListedTool {
  name: string;
  outputSchema?: { type: 'object'; properties?: Record<string, unknown>; required?: string[]; [key: string]: unknown };
  [key: string]: unknown;
}

/**
 * The tool list as the bridge serves it: a write it may queue can answer `{queued}` instead of
 * its result, and a read it may answer from the cache carries `cached`. Said in the output
 * schemas, so a client that validates structured content (the SDK's does) accepts both.
 */
export function widenToolList(result: Record<string, unknown>): Record<string, unknown> {
  if (!Array.isArray(result.tools)) return result;
  const tools = (result.tools as ListedTool[]).map((tool) => {
    const schema = tool.outputSchema;
    if (!schema) return tool;
    if (QUEUEABLE_TOOLS.has(tool.name)) {
      const { required, ...rest } = schema;
      return {
        ...tool,
        outputSchema: {
          ...rest,
          properties: { ...schema.properties, queued: QUEUED_SCHEMA },
          anyOf: [{ required: required ?? [] }, { required: ['queued'] }],
        },
      };
    }
    if (tool.name === 'memory_recall' || tool.name === 'recall_context') {
      return { ...tool, outputSchema: { ...schema, properties: { ...schema.properties, cached: CACHED_SCHEMA } } };
    }
    return tool;
  });
  return { ...result, tools };
}
