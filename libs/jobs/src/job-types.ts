/** Queue names. Each queue has its own consumers and concurrency in the worker. */
export const QUEUE_NAMES = ['embeddings'] as const;
export type QueueName = (typeof QUEUE_NAMES)[number];

/** What can be embedded: each owning library registers a target handler in the worker. */
export type EmbeddingTargetName = 'memory' | 'kb_chunk';

/** Every job payload carries the tenant it works for. */
export interface TenantJob {
  readonly tenantId: string;
}

export interface EmbedJob extends TenantJob {
  readonly target: EmbeddingTargetName;
  readonly ids: readonly string[];
}

/** Job names per queue and their payloads: the one place a job's shape is declared. */
export interface JobPayloads {
  embeddings: { embed: EmbedJob };
}

export type JobName<Q extends QueueName> = keyof JobPayloads[Q] & string;
export type JobPayload<Q extends QueueName, N extends JobName<Q>> = JobPayloads[Q][N];
