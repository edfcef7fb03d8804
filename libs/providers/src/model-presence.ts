import { type ReadinessResult } from '@cairn/observability';
import { type ModelCatalogClient } from './model-client';
import { ProviderError } from './provider-error';

export interface ModelPresenceOptions {
  /** What the model is for, reported in `info`: `embeddings`, `chat`. */
  readonly purpose: string;
  /** How long a good answer is reused: keeps /readyz cheap for the server and the provider. */
  readonly okTtlMs?: number;
  /** Failures are re-checked sooner, so readiness returns soon after the operator fixes things. */
  readonly failedTtlMs?: number;
  /** Must stay under /readyz's 2 s bound so the operator sees our message, not a generic timeout. */
  readonly timeoutMs?: number;
  readonly now?: () => number;
}

/**
 * Readiness of one provider model: the server answers its model list and the model is in it.
 * Results are cached and concurrent calls share one request.
 */
export class ModelPresenceCheck {
  private cached?: { result: ReadinessResult; expires: number };
  private inFlight?: Promise<ReadinessResult>;
  private readonly okTtlMs: number;
  private readonly failedTtlMs: number;
  private readonly timeoutMs: number;
  private readonly now: () => number;

  constructor(
    private readonly client: ModelCatalogClient,
    private readonly model: string,
    private readonly options: ModelPresenceOptions,
  ) {
    this.okTtlMs = options.okTtlMs ?? 30_000;
    this.failedTtlMs = options.failedTtlMs ?? 5_000;
    this.timeoutMs = options.timeoutMs ?? 1_500;
    this.now = options.now ?? Date.now;
  }

  check(): Promise<ReadinessResult> {
    if (this.cached && this.cached.expires > this.now()) return Promise.resolve(this.cached.result);
    this.inFlight ??= this.probe().then((result) => {
      this.cached = { result, expires: this.now() + (result.ok ? this.okTtlMs : this.failedTtlMs) };
      this.inFlight = undefined;
      return result;
    });
    return this.inFlight;
  }

  private async probe(): Promise<ReadinessResult> {
    const { client, model } = this;
    const info = { provider: client.provider, model, url: client.where, purpose: this.options.purpose };
    try {
      if (await client.hasModel(model, undefined, this.timeoutMs)) return { ok: true, info };
      const detail =
        client.provider === 'ollama'
          ? `model ${model} is not pulled: run \`ollama pull ${model}\``
          : `model ${model} is not served by the ${client.label} at ${client.where}: check the model name`;
      return { ok: false, detail, info };
    } catch (error) {
      return { ok: false, detail: this.explain(error), info };
    }
  }

  private explain(error: unknown): string {
    const { label, where } = this.client;
    if (!(error instanceof ProviderError)) return `${label} at ${where}: presence check failed`;
    switch (error.kind) {
      case 'timeout':
        return `${label} at ${where} is unreachable (no answer within ${this.timeoutMs} ms)`;
      case 'unavailable':
      case 'rate_limited':
        return `${label} at ${where} is unreachable (${error.status ? `HTTP ${error.status}` : reasonOf(error)})`;
      case 'bad_request':
        return `${label} at ${where} refused the model list (HTTP ${error.status ?? '?'}): check the URL and the API key`;
      case 'not_found':
        return `${label} at ${where} has no model list endpoint (HTTP 404): check the URL`;
      case 'bad_response':
        return `${label} at ${where} answered the model list with something unexpected: is it really ${label}?`;
    }
  }
}

/** "Ollama at http://… is unreachable (ECONNREFUSED)" → "ECONNREFUSED". */
function reasonOf(error: ProviderError): string {
  return /\(([^()]+)\)$/.exec(error.message)?.[1] ?? 'network error';
}
