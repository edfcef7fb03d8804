import { Injectable, Optional } from '@nestjs/common';
import { Gauge } from 'prom-client';
import { MetricsService } from './metrics.service';

export interface ReadinessResult {
  readonly ok: boolean;
  /** Operator-facing explanation; never a secret or a connection string. */
  readonly detail?: string;
  /** Extra facts worth surfacing (provider, mode); not a failure on their own. */
  readonly info?: Record<string, unknown>;
}

export type ReadinessCheck = () => Promise<ReadinessResult>;

export interface ReadinessOptions {
  /**
   * False for a dependency the app keeps serving without (the api and gateway write on with
   * Redis down, embedding deferred): its failure is reported as degraded, and the app stays
   * ready so an orchestrator does not pull every pod during a Redis outage.
   */
  readonly required?: boolean;
}

export interface ReadinessReport {
  readonly ready: boolean;
  /** Optional dependencies that are failing: the app serves, with less. */
  readonly degraded: string[];
  readonly checks: Record<string, ReadinessResult>;
}

const CHECK_TIMEOUT_MS = 2_000;

/**
 * Dependencies register here what "ready" means for them (database, Redis, schema,
 * embedder); `/readyz` runs every check. Only required dependencies decide readiness; the
 * others are listed as degraded (and in `cairn_dependency_up`). Once shutdown starts the app
 * reports not ready at once so load balancers stop sending traffic while in-flight work drains.
 */
@Injectable()
export class ReadinessRegistry {
  private readonly checks = new Map<string, { check: ReadinessCheck; required: boolean }>();
  private shuttingDown = false;
  private readonly up?: Gauge<'dependency'>;

  constructor(@Optional() metrics?: MetricsService) {
    this.up = metrics
      ? new Gauge({
          name: 'cairn_dependency_up',
          help: 'Whether a dependency answered its last readiness check (1) or not (0)',
          labelNames: ['dependency'],
          registers: [metrics.registry],
        })
      : undefined;
  }

  register(name: string, check: ReadinessCheck, options: ReadinessOptions = {}): void {
    this.checks.set(name, { check, required: options.required ?? true });
  }

  markShuttingDown(): void {
    this.shuttingDown = true;
  }

  get isShuttingDown(): boolean {
    return this.shuttingDown;
  }

  async evaluate(): Promise<ReadinessReport> {
    const entries = await Promise.all(
      [...this.checks.entries()].map(async ([name, { check }]) => [name, await runBounded(check)] as const),
    );
    const checks: Record<string, ReadinessResult> = Object.fromEntries(entries);
    for (const [name, result] of entries) this.up?.set({ dependency: name }, result.ok ? 1 : 0);
    const failing = entries.filter(([, result]) => !result.ok).map(([name]) => name);
    const degraded = failing.filter((name) => this.checks.get(name)?.required === false);
    let ready = failing.length === degraded.length;
    if (this.shuttingDown) {
      checks.shutdown = { ok: false, detail: 'shutting down' };
      ready = false;
    }
    return { ready, degraded, checks };
  }
}

async function runBounded(check: ReadinessCheck): Promise<ReadinessResult> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<ReadinessResult>((resolve) => {
    timer = setTimeout(
      () => resolve({ ok: false, detail: `no answer within ${CHECK_TIMEOUT_MS} ms` }),
      CHECK_TIMEOUT_MS,
    );
  });
  try {
    return await Promise.race([
      check().catch((error: unknown) => ({
        ok: false,
        detail: error instanceof Error ? error.message : 'check failed',
      })),
      timeout,
    ]);
  } finally {
    clearTimeout(timer);
  }
}
