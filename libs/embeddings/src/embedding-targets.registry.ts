import { Injectable } from '@nestjs/common';
import { type EmbeddingTargetName } from '@cairn/jobs';
import { type EmbeddingModel } from './embedding-model';

export interface PendingEmbedding {
  readonly id: string;
  readonly text: string;
  readonly contentHash: string;
}

export interface ComputedEmbedding {
  readonly id: string;
  readonly contentHash: string;
  readonly vector: Float32Array;
}

/**
 * How one kind of row gets its vector. Both calls run inside the tenant's transaction;
 * the model call happens between them, outside any transaction.
 */
export interface EmbeddingTargetHandler {
  /**
   * The owner's table its vectors live in (a constant of the owner, never input): each active
   * model gets a partial HNSW index on it (VectorIndexes), on the expression the semantic ranker uses.
   */
  readonly table: string;
  /** Of `ids`, the live rows without a vector of `model` for their current content. */
  pending(ids: readonly string[], model: EmbeddingModel): Promise<PendingEmbedding[]>;
  /** Stores vectors whose content hash still matches the row: an edit made meanwhile wins. */
  store(vectors: readonly ComputedEmbedding[], model: EmbeddingModel): Promise<number>;
  /**
   * Ids of live rows lacking a current vector of `model`, in id order after `after`, skipping
   * rows written in the last `settledSeconds` (their own job is probably still on its way).
   * Feeds the sweep and the re-embedding backfill.
   */
  missing(model: EmbeddingModel, options: MissingOptions): Promise<string[]>;
}

export interface MissingOptions {
  readonly after: string | null;
  readonly limit: number;
  readonly settledSeconds: number;
}

/** Libraries that own embeddable rows (memories, knowledge-base chunks) register here. */
@Injectable()
export class EmbeddingTargets {
  private readonly handlers = new Map<EmbeddingTargetName, EmbeddingTargetHandler>();

  register(name: EmbeddingTargetName, handler: EmbeddingTargetHandler): void {
    if (this.handlers.has(name)) throw new Error(`embedding target "${name}" registered twice`);
    this.handlers.set(name, handler);
  }

  get(name: EmbeddingTargetName): EmbeddingTargetHandler {
    const handler = this.handlers.get(name);
    if (!handler) throw new Error(`no embedding target "${name}" is registered in this app`);
    return handler;
  }

  names(): EmbeddingTargetName[] {
    return [...this.handlers.keys()];
  }

  /** The tables of every registered target, in registration order. */
  tables(): string[] {
    return [...this.handlers.values()].map((handler) => handler.table);
  }
}
