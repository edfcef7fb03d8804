import { Inject, Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import { LATE, withinBudget } from '@cairn/common';
import { CAIRN_CONFIG, type CairnConfig } from '@cairn/config';
import { type EmbeddingTargetName } from '@cairn/jobs';
import { TenantContext, TenantEntry, TenantTransaction } from '@cairn/tenancy';
import { EmbeddingMetrics } from './embedding-metrics.service';
import { EMBEDDER, type Embedder, type EmbeddingModel } from './embedding-model';
import { EmbeddingTargets, type PendingEmbedding } from './embedding-targets.registry';

/**
 * How long the queued job of a write whose inline embed ran over budget waits: a late call that
 * lands within it leaves the job nothing to do instead of the worker computing the same vector
 * beside it; past it the worker embeds the row anyway (a late call that failed, or one stuck
 * behind a busy event loop). Measured with 10 s, the writes that ran over budget set the burst's
 * p95 at over 10 s: the late calls did not land quickly under load (docs/retrieval.md).
 */
export const LATE_INLINE_GRACE_MS = 2_000;

/** What became of one inline embed (`off`: disabled or not an in-process embedder; not counted). */
export type InlineOutcome = 'done' | 'over_budget' | 'skipped_too_long' | 'skipped_busy' | 'error' | 'off';

/**
 * Embedders that compute in this process. A remote provider (Ollama, OpenAI) is left to the
 * queue: its latency is a network's, its capacity shared, and the worker's CoalescingEmbedder
 * batches concurrent writes into one request there, which an inline call per write would defeat.
 */
const IN_PROCESS: ReadonlySet<EmbeddingModel['provider']> = new Set(['hash', 'local']);

/**
 * Gives a freshly written row its vector in the writing process, right after its transaction
 * committed, so a write is searchable by meaning when its answer goes out instead of when the
 * worker reaches its job. The writer hands over the text and content hash it just committed,
 * so no read comes first; the vector is stored by the target's own `store`, as the worker's
 * are: only while the row still has that hash (a vector for text edited meanwhile is never
 * stored) and no transaction is held while the model runs (DESIGN §11.3). The write waits at most the budget; a model call still running then goes on in
 * the background (still hash-checked) and the queued job, enqueued as always, is the fallback —
 * a cheap no-op when the vector is already current. At most `maxInFlight` calls run at once (a
 * late call keeps its slot until it ends): past that a write is left to the queue at once.
 */
@Injectable()
export class InlineEmbedding implements OnApplicationShutdown {
  private readonly logger = new Logger('InlineEmbedding');
  private readonly settings: CairnConfig['embeddings']['inline'];
  private readonly running = new Set<Promise<unknown>>();

  constructor(
    @Inject(EMBEDDER) private readonly embedder: Embedder,
    @Inject(CAIRN_CONFIG) config: CairnConfig,
    private readonly targets: EmbeddingTargets,
    private readonly tx: TenantTransaction,
    private readonly tenant: TenantContext,
    private readonly entry: TenantEntry,
    private readonly metrics: EmbeddingMetrics,
  ) {
    this.settings = config.embeddings.inline;
  }

  /** Whether this process embeds writes inline at all. */
  get enabled(): boolean {
    return this.settings.enabled && IN_PROCESS.has(this.embedder.model.provider);
  }

  /**
   * Embeds `row` of `target` now (its text as the target embeds it, and its content hash as
   * committed), if it is enabled here, the text is short enough and a slot is free; waits at
   * most the budget. Never throws: every outcome other than `done` leaves the row to its queued
   * job. Call after commit.
   */
  async embed(target: EmbeddingTargetName, row: PendingEmbedding): Promise<InlineOutcome> {
    if (!this.enabled) return 'off';
    if (row.text.length > this.settings.maxChars) return this.count('skipped_too_long');
    if (this.running.size >= this.settings.maxInFlight) return this.count('skipped_busy');
    // A scope of its own in the same tenant: the embed is not part of the write's unit of work,
    // so the request's before-commit step (a tool call's audit reservation) must not run again
    // in these transactions, and a late call may outlive the request.
    const tenant = this.tenant.require('InlineEmbedding.embed');
    const work = this.entry.run(tenant, () => this.run(target, row));
    this.running.add(work);
    void work.finally(() => this.running.delete(work));
    const outcome = await withinBudget(work, this.settings.budgetMs);
    return this.count(outcome === LATE ? 'over_budget' : outcome);
  }

  /** Lets late calls finish (their vectors are worth keeping) before the pool closes. */
  async onApplicationShutdown(): Promise<void> {
    await Promise.allSettled([...this.running]);
  }

  private async run(target: EmbeddingTargetName, row: PendingEmbedding): Promise<InlineOutcome> {
    try {
      const handler = this.targets.get(target);
      const model = this.embedder.model;
      const [vector] = await this.embedder.embed([row.text]);
      if (!vector) throw new Error('the embedder returned no vector');
      // Stores nothing when an edit committed meanwhile: that edit's own embed gives the vector.
      await this.tx.run(() => handler.store([{ id: row.id, contentHash: row.contentHash, vector }], model));
      return 'done';
    } catch (error) {
      // The queued job retries with backoff and reports; here it is only worth a warning.
      this.logger.warn(
        `inline embedding of ${target} ${row.id} failed: ${error instanceof Error ? error.message : String(error)}`,
      );
      return 'error';
    }
  }

  private count(outcome: InlineOutcome): InlineOutcome {
    this.metrics.inline.inc({ outcome });
    return outcome;
  }
}
