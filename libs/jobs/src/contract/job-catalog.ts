import { z } from 'zod';

/**
 * Every queue, job name and payload, declared once. Producers are typed by it, the worker
 * validates payloads against it (a malformed payload fails at once, unretried) and checks at
 * boot that every job here has exactly one handler.
 */
const tenantId = z.uuid();
const id = z.uuid();

export const MAINTENANCE_TASKS = [
  'retention-purge',
  'confidence-decay',
  'stale-embedding-sweep',
  'duplicate-scan',
  'term-statistics-fold',
  'data-key-reseal',
] as const;
export type MaintenanceTask = (typeof MAINTENANCE_TASKS)[number];

export const EMBEDDING_TARGETS = ['memory', 'kb_chunk', 'code_chunk'] as const;
export type EmbeddingTargetName = (typeof EMBEDDING_TARGETS)[number];

/**
 * Who is waiting for an embed job: `interactive` is a user's or agent's write (REST, MCP, hooks)
 * that someone may search for in a moment; `bulk` is work nobody waits on row by row (imports,
 * code uploads, sweeps, backfills after a model switch). Interactive jobs go ahead of bulk ones,
 * and bulk jobs are shared between tenants in turn (docs/embedding-queue.md).
 */
export const JOB_ORIGINS = ['interactive', 'bulk'] as const;
export type JobOrigin = (typeof JOB_ORIGINS)[number];

export const JOB_CATALOG = {
  embeddings: {
    embed: z.strictObject({
      tenantId,
      target: z.enum(EMBEDDING_TARGETS),
      ids: z.array(id).min(1).max(1_000),
      /** Required of producers (JobQueue refuses an embed job without it); absent on jobs queued before it existed. */
      origin: z.enum(JOB_ORIGINS, 'must be interactive or bulk').optional(),
    }),
    /** Re-embeds a tenant's rows for `model` after a model switch, a batch per run, resuming after `after`. */
    'reembed-backfill': z.strictObject({
      tenantId,
      model: z.string().regex(/^[a-z0-9][a-z0-9._:-]{0,99}$/),
      target: z.enum(EMBEDDING_TARGETS),
      after: id.nullable(),
    }),
  },
  summaries: {
    'summarize-file': z.strictObject({ tenantId, fileSummaryId: id }),
    'summarize-session': z.strictObject({ tenantId, requestId: id }),
  },
  knowledge: {
    /**
     * Fetches a URL into a project's knowledge base, in the worker (the only pods with egress).
     * `project` is the slug the requester's token named, checked again by the indexing service.
     */
    fetch: z.strictObject({
      tenantId,
      project: z.string().min(1).max(100),
      url: z.string().min(1).max(2_000),
      requestedBy: z.strictObject({
        userId: id.nullable(),
        agentId: z.string().max(200).nullable(),
        tokenId: z.string().max(200),
      }),
      title: z.string().max(500).optional(),
      retentionTier: z.enum(['external', 'internal', 'summary']).optional(),
      /**
       * The UTC day whose budget paid for the fetch: given back to that day when the safety
       * checks refuse the URL before anything is sent. Absent on jobs queued before it existed.
       */
      budgetDay: z.iso.date().optional(),
    }),
  },
  extraction: {
    'extract-facts': z.strictObject({ tenantId, requestId: id }),
  },
  maintenance: {
    'retention-purge': z.strictObject({ tenantId }),
    'confidence-decay': z.strictObject({ tenantId }),
    'stale-embedding-sweep': z.strictObject({ tenantId }),
    'duplicate-scan': z.strictObject({ tenantId }),
    /** Folds the keyword ranker's appended term-count deltas into their totals. */
    'term-statistics-fold': z.strictObject({ tenantId }),
    /** Re-seals a batch of the tenant's sealed secrets still under an older data-key version. */
    'data-key-reseal': z.strictObject({ tenantId }),
    /**
     * The one platform-level job: a repeatable tick that fans a maintenance task out to one
     * job per live tenant. It carries no tenant because it works for all of them.
     */
    'schedule-maintenance': z.strictObject({ task: z.enum(MAINTENANCE_TASKS) }),
  },
} as const;

type Catalog = typeof JOB_CATALOG;
export type QueueName = keyof Catalog;
export const QUEUE_NAMES = Object.keys(JOB_CATALOG) as QueueName[];
export type JobName<Q extends QueueName> = keyof Catalog[Q] & string;
export type JobPayload<Q extends QueueName, N extends JobName<Q>> = z.infer<Catalog[Q][N] & z.ZodType>;

export type EmbedJob = JobPayload<'embeddings', 'embed'>;

/** Whether job `queue/name` works for one tenant (its payload names it): the registry enters that tenant. */
export function carriesTenant(queue: QueueName, name: string): boolean {
  const schema = (JOB_CATALOG[queue] as Record<string, z.ZodObject | undefined>)[name];
  return schema !== undefined && 'tenantId' in schema.shape;
}

/**
 * The origin of job `queue/name` with `payload`: what an embed job says, bulk for a re-embedding
 * backfill, none for the other queues (they are not ordered by origin).
 */
export function originOf(queue: QueueName, name: string, payload: unknown): JobOrigin | undefined {
  if (queue !== 'embeddings') return undefined;
  if (name === 'reembed-backfill') return 'bulk';
  return (payload as { origin?: JobOrigin } | undefined)?.origin;
}

/** Every (queue, name) pair in the catalog. */
export function catalogEntries(): { queue: QueueName; name: string; schema: z.ZodType }[] {
  return QUEUE_NAMES.flatMap((queue) =>
    Object.entries(JOB_CATALOG[queue]).map(([name, schema]) => ({ queue, name, schema: schema })),
  );
}
