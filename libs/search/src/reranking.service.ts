import { Inject, Injectable, Logger } from '@nestjs/common';
import { LATE, withinBudget } from '@cairn/common';
import { CAIRN_CONFIG, type CairnConfig } from '@cairn/config';
import { MetricsService } from '@cairn/observability';
import { ProviderError } from '@cairn/providers';
import { Counter, Histogram } from 'prom-client';
import { RERANKER, type RerankDocument, type Reranker, type RerankReport, type RerankScore } from './contract/reranker';
import { type Rerankable, rerankOrder } from './rerank-order';

export interface Reranked<T> {
  /** Every result given, reordered where the reranker answered in time. */
  readonly ranked: T[];
  /** Absent when no reranker is configured or there was nothing to send. */
  readonly report?: RerankReport;
  /** Why the fused order stands, when the reranker did not answer in time or failed. */
  readonly notes: string[];
}

type Outcome = 'ok' | 'timeout' | 'error';

/**
 * The optional reranking stage of search (RERANK_URL; off by default). After fusion (and any
 * date adjustment), the first RERANK_CANDIDATES results go to the reranker, whose order
 * replaces the fused order among them; the results after them keep their fused order, and a
 * candidate it did not score follows those it did. They go in requests of RERANK_BATCH_SIZE,
 * all at once (servers cap a request: TEI at 32 texts by default), under one budget: past
 * RERANK_TIMEOUT_MS, or when any request fails, the fused order stands and the notes say so
 * (half a reranked list would mix two scales). The call is a model call: make it outside any
 * database transaction, so no pooled connection waits on it (DESIGN §11.3).
 */
@Injectable()
export class Reranking {
  private readonly logger = new Logger('Reranking');
  private readonly requests: Counter<'outcome'>;
  private readonly latency: Histogram;

  constructor(
    @Inject(RERANKER) private readonly reranker: Reranker | null,
    @Inject(CAIRN_CONFIG) private readonly config: CairnConfig,
    metrics: MetricsService,
  ) {
    const registers = [metrics.registry];
    this.requests = new Counter({
      name: 'cairn_rerank_requests_total',
      help: 'Reranker calls by outcome: ok, timeout (no answer within RERANK_TIMEOUT_MS) or error',
      labelNames: ['outcome'],
      registers,
    });
    this.latency = new Histogram({
      name: 'cairn_rerank_latency_seconds',
      help: 'How long searches waited for the reranker (at most RERANK_TIMEOUT_MS), whatever the outcome',
      buckets: [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers,
    });
  }

  get enabled(): boolean {
    return this.reranker !== null;
  }

  /** Fused results to fetch for a page of `limit`: with a reranker, at least its candidates. */
  depth(limit: number): number {
    return this.reranker ? Math.max(limit, this.config.rerank.candidates) : limit;
  }

  /**
   * Reorders the first RERANK_CANDIDATES of `ranked` by the reranker's scores of `query`
   * against each one's text (`textOf`; one without text is not sent and keeps its place
   * after those scored). Never rejects: failures keep the given order.
   */
  async rerank<T extends Rerankable>(
    query: string,
    ranked: readonly T[],
    textOf: (item: T) => string | undefined,
  ): Promise<Reranked<T>> {
    const reranker = this.reranker;
    const head = ranked.slice(0, this.config.rerank.candidates);
    const documents = head.flatMap((item) => {
      const text = textOf(item)?.trim();
      return text ? [{ id: item.id, text }] : [];
    });
    if (!reranker || documents.length === 0 || query.trim() === '') return { ranked: [...ranked], notes: [] };

    const batches = inBatches(documents, this.config.rerank.batchSize);
    const started = performance.now();
    const { outcome: answered, scores, error, unanswered } = await this.call(reranker, query, batches);
    const ms = Math.round(performance.now() - started);
    // An answer that scores none of the candidates is no better than none: counted as an error.
    const outcome = answered === 'ok' && scores.length === 0 ? 'error' : answered;
    this.requests.inc({ outcome });
    this.latency.observe(ms / 1_000);
    const report = (applied: boolean): RerankReport => ({
      model: reranker.model,
      candidates: documents.length,
      applied,
      ms,
    });
    if (outcome === 'ok') {
      return { ranked: rerankOrder(ranked, head.length, scores), report: report(true), notes: [] };
    }
    const timeoutMs = this.config.rerank.timeoutMs;
    // Which requests went wrong matters to an operator sizing RERANK_BATCH_SIZE against the server.
    const several = batches.length > 1;
    const note =
      outcome === 'timeout'
        ? `the reranker did not answer within ${timeoutMs} ms${several ? ` (${unanswered} of ${batches.length} requests unanswered)` : ''}: kept the fused order`
        : answered === 'ok'
          ? 'the reranker scored none of the candidates: kept the fused order'
          : `the reranker is unavailable${several ? ` (a request of ${batches.length} failed)` : ''}: kept the fused order`;
    this.logger.warn({
      msg: `reranking skipped: ${note}`,
      model: reranker.model,
      timeoutMs,
      batches: batches.length,
      ...(error ? { err: error } : {}),
    });
    return { ranked: [...ranked], report: report(false), notes: [note] };
  }

  /**
   * The reranker's answers to every batch within the budget, sent at once; the requests still
   * open are cancelled when the budget runs out or one of them fails (the rest would be unused).
   */
  private async call(
    reranker: Reranker,
    query: string,
    batches: readonly (readonly RerankDocument[])[],
  ): Promise<{ outcome: Outcome; scores: RerankScore[]; unanswered: number; error?: unknown }> {
    const controller = new AbortController();
    let pending = batches.length;
    const answers = Promise.all(
      batches.map(async (batch) => {
        const scores = await reranker.rerank(query, batch, controller.signal);
        pending -= 1;
        return scores;
      }),
    );
    try {
      const answer = await withinBudget(answers, this.config.rerank.timeoutMs);
      if (answer === LATE) return { outcome: 'timeout', scores: [], unanswered: pending };
      const sent = new Set(batches.flat().map((document) => document.id));
      const scores = answer.flat().filter((score) => sent.has(score.id) && Number.isFinite(score.score));
      return { outcome: 'ok', scores, unanswered: 0 };
    } catch (error) {
      const timedOut = error instanceof ProviderError && error.kind === 'timeout';
      return { outcome: timedOut ? 'timeout' : 'error', scores: [], unanswered: pending, error };
    } finally {
      controller.abort();
      // Requests cancelled above reject after this returns: nobody is waiting for them any more.
      answers.catch(() => undefined);
    }
  }
}

/** `documents` in runs of at most `size`, in order. */
function inBatches<T>(documents: readonly T[], size: number): T[][] {
  const batches: T[][] = [];
  for (let start = 0; start < documents.length; start += size) batches.push(documents.slice(start, start + size));
  return batches;
}
