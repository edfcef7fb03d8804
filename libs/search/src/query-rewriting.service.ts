import { Inject, Injectable, Logger, Optional } from '@nestjs/common';
import { LATE, withinBudget } from '@cairn/common';
import { CAIRN_CONFIG, type CairnConfig } from '@cairn/config';
import { MetricsService } from '@cairn/observability';
import { GENERATOR, type Generator, ProviderError } from '@cairn/providers';
import { LRUCache } from 'lru-cache';
import { Counter, Histogram } from 'prom-client';
import { queryParts } from './query-parts';
import { parseRewrite, REWRITE_MAX_TOKENS, REWRITE_SYSTEM, rewriteNote, type RewriteOutcome } from './query-rewrite';

/** Questions whose answer is kept per process: a few hundred bytes each. */
const CACHE_ENTRIES = 2_000;

/** The parts to rank beside a question, and what the report should say about where they came from. */
export interface RewrittenParts {
  readonly parts: string[];
  readonly notes: string[];
}

interface Answer {
  readonly outcome: RewriteOutcome;
  /** The model's usable parts; empty unless `ok`. */
  readonly parts: readonly string[];
}

/**
 * The parts of a recall question: with QUERY_REWRITE=on and a chat model, the sub-queries the
 * model gives (query-rewrite.ts), else the model-free ones (queryParts). The model has
 * QUERY_REWRITE_TIMEOUT_MS: past it, on any failure, or when it gives nothing usable, the
 * model-free parts stand and the notes say why; the caller never sees an error. Answers (an
 * empty one too: at temperature 0 it would come again) are remembered per question, and
 * concurrent recalls of one question share a call; failures are not remembered. A model call:
 * make it before opening any transaction (DESIGN §11.3), as TextRanking.embedQuery does.
 */
@Injectable()
export class QueryRewriting {
  private readonly logger = new Logger('QueryRewriting');
  private readonly cache = new LRUCache<string, readonly string[]>({ max: CACHE_ENTRIES });
  private readonly inFlight = new Map<string, Promise<Answer>>();
  private readonly requests: Counter<'outcome'>;
  private readonly cacheHits: Counter;
  private readonly latency: Histogram;

  constructor(
    // Absent where no ProvidersModule is loaded (a test composing search alone): rewrite off.
    @Optional() @Inject(GENERATOR) private readonly generator: Generator | null,
    @Inject(CAIRN_CONFIG) private readonly config: CairnConfig,
    metrics: MetricsService,
  ) {
    const registers = [metrics.registry];
    this.requests = new Counter({
      name: 'cairn_query_rewrite_requests_total',
      help: 'Query rewrite model calls by outcome: ok, timeout (past QUERY_REWRITE_TIMEOUT_MS), error, empty (nothing usable)',
      labelNames: ['outcome'],
      registers,
    });
    this.cacheHits = new Counter({
      name: 'cairn_query_rewrite_cache_hits_total',
      help: 'Recall questions whose rewrite was remembered or shared with a concurrent recall: no model call',
      registers,
    });
    this.latency = new Histogram({
      name: 'cairn_query_rewrite_latency_seconds',
      help: 'How long recalls waited for the query rewrite model (at most QUERY_REWRITE_TIMEOUT_MS)',
      buckets: [0.05, 0.1, 0.25, 0.5, 1, 1.5, 2.5, 5, 10],
      registers,
    });
  }

  /** Whether questions go to the model: QUERY_REWRITE=on and a chat model configured. */
  get enabled(): boolean {
    return this.config.queryRewrite.enabled && !!this.generator;
  }

  /** The parts of `question` to rank beside it (none for a question about one thing). Never rejects. */
  async parts(question: string): Promise<RewrittenParts> {
    const generator = this.generator;
    const fallback = queryParts(question);
    if (!this.config.queryRewrite.enabled || !generator) return { parts: fallback, notes: [] };
    const answer = await this.answer(generator, question);
    const model = `${generator.model.provider}:${generator.model.name}`;
    const timeoutMs = this.config.queryRewrite.timeoutMs;
    if (answer.outcome === 'ok') {
      return { parts: [...answer.parts], notes: [rewriteNote('ok', { model, parts: answer.parts.length, timeoutMs })] };
    }
    return { parts: fallback, notes: [rewriteNote(answer.outcome, { model, parts: fallback.length, timeoutMs })] };
  }

  private answer(generator: Generator, question: string): Promise<Answer> {
    const key = `${generator.model.provider}:${generator.model.name}\u0000${question}`;
    const cached = this.cache.get(key);
    if (cached) {
      this.cacheHits.inc();
      return Promise.resolve({ outcome: cached.length > 0 ? 'ok' : 'empty', parts: cached });
    }
    const pending = this.inFlight.get(key);
    if (pending) {
      this.cacheHits.inc();
      return pending;
    }
    const call = this.call(generator, question)
      .then((answer) => {
        if (answer.outcome === 'ok' || answer.outcome === 'empty') this.cache.set(key, answer.parts);
        return answer;
      })
      .finally(() => this.inFlight.delete(key));
    this.inFlight.set(key, call);
    return call;
  }

  /**
   * One model call within the budget; past it the request is cancelled (a late answer would be
   * unused, and a slow model should not pile up requests from every recall). Never rejects.
   */
  private async call(generator: Generator, question: string): Promise<Answer> {
    const timeoutMs = this.config.queryRewrite.timeoutMs;
    const controller = new AbortController();
    const started = performance.now();
    // The question is the caller's own, and the answer only becomes searches within the caller's
    // scope, which it could have sent itself: no fence against instructions inside it is needed.
    const request = generator.generate(
      {
        system: REWRITE_SYSTEM,
        prompt: `Question: ${question}`,
        maxTokens: REWRITE_MAX_TOKENS,
        json: true,
        temperature: 0,
      },
      controller.signal,
    );
    let answer: Answer;
    try {
      const text = await withinBudget(request, timeoutMs);
      if (text === LATE) {
        answer = { outcome: 'timeout', parts: [] };
      } else {
        const parts = parseRewrite(text, question);
        answer = { outcome: parts.length > 0 ? 'ok' : 'empty', parts };
      }
    } catch (error) {
      const timedOut = error instanceof ProviderError && error.kind === 'timeout';
      answer = { outcome: timedOut ? 'timeout' : 'error', parts: [] };
      this.logger.warn({ msg: 'query rewrite failed; using the model-free parts', err: error });
    } finally {
      controller.abort();
      // Cancelled above after the budget: its rejection has nobody waiting for it.
      request.catch(() => undefined);
    }
    if (answer.outcome === 'timeout') {
      this.logger.warn({ msg: 'query rewrite timed out; using the model-free parts', timeoutMs });
    }
    this.requests.inc({ outcome: answer.outcome });
    this.latency.observe((performance.now() - started) / 1_000);
    return answer;
  }
}
