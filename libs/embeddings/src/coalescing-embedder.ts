import { ProviderError } from '@cairn/providers';
import { type Embedder } from './embedding-model';

/** Failures that may be one caller's input, not the provider's state: worth isolating. */
const INPUT_ERRORS = new Set(['bad_request', 'bad_response']);

interface Waiting {
  readonly texts: readonly string[];
  readonly resolve: (vectors: Float32Array[]) => void;
  readonly reject: (error: unknown) => void;
}

/**
 * Dynamic batching of the worker's embedding requests. Every write enqueues its own job, so
 * without this each job's one text would be one provider request, and a GPU serving a few
 * requests at a time would embed one text per pass. Here at most `maxInFlight` requests
 * run; texts of jobs that arrive meanwhile wait and leave together, up to `batchSize` per
 * request, when a slot frees. When the provider is idle a text goes at once: batching adds
 * no latency, it only forms under load.
 *
 * A merged request that fails for a reason that may lie in one caller's text (provider
 * refused the input, unusable answer) is retried per caller, so one bad text cannot fail
 * the jobs it happened to travel with; other failures (rate limit, outage, timeout) reach
 * every caller at once, as they would have anyway.
 */
export class CoalescingEmbedder implements Embedder {
  private readonly waiting: Waiting[] = [];
  private inFlight = 0;

  constructor(
    private readonly inner: Embedder,
    private readonly options: { readonly batchSize: number; readonly maxInFlight: number },
  ) {}

  get model() {
    return this.inner.model;
  }

  embed(texts: readonly string[]): Promise<Float32Array[]> {
    if (texts.length === 0) return Promise.resolve([]);
    return new Promise((resolve, reject) => {
      this.waiting.push({ texts, resolve, reject });
      this.dispatch();
    });
  }

  private dispatch(): void {
    while (this.inFlight < Math.max(1, this.options.maxInFlight) && this.waiting.length > 0) {
      const callers = this.takeBatch();
      this.inFlight += 1;
      void this.send(callers).finally(() => {
        this.inFlight -= 1;
        this.dispatch();
      });
    }
  }

  /** Whole callers, oldest first, up to the batch size (a caller larger than that goes alone). */
  private takeBatch(): Waiting[] {
    const limit = Math.max(1, this.options.batchSize);
    const callers = [this.waiting.shift()!];
    let size = callers[0].texts.length;
    while (this.waiting.length > 0 && size + this.waiting[0].texts.length <= limit) {
      const next = this.waiting.shift()!;
      size += next.texts.length;
      callers.push(next);
    }
    return callers;
  }

  private async send(callers: readonly Waiting[]): Promise<void> {
    try {
      const vectors = await this.inner.embed(callers.flatMap((caller) => caller.texts));
      let offset = 0;
      for (const caller of callers) {
        caller.resolve(vectors.slice(offset, offset + caller.texts.length));
        offset += caller.texts.length;
      }
    } catch (error) {
      if (callers.length > 1 && error instanceof ProviderError && INPUT_ERRORS.has(error.kind)) {
        for (const caller of callers) await this.inner.embed(caller.texts).then(caller.resolve, caller.reject);
        return;
      }
      for (const caller of callers) caller.reject(error);
    }
  }
}
