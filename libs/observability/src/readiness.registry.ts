import { Injectable } from '@nestjs/common';

export interface ReadinessResult {
  readonly ok: boolean;
  /** Operator-facing explanation; never a secret or a connection string. */
  readonly detail?: string;
  /** Extra facts worth surfacing (provider, mode); not a failure on their own. */
  readonly info?: Record<string, unknown>;
}

export type ReadinessCheck = () => Promise<ReadinessResult>;

const CHECK_TIMEOUT_MS = 2_000;

/**
 * Dependencies register here what "ready" means for them (database, Redis, schema,
 * embedder); `/readyz` runs every check. Once shutdown starts the app reports not ready
 * at once so load balancers stop sending traffic while in-flight work drains.
 */
@Injectable()
export class ReadinessRegistry {
  private readonly checks = new Map<string, ReadinessCheck>();
  private shuttingDown = false;

  register(name: string, check: ReadinessCheck): void {
    this.checks.set(name, check);
  }

  markShuttingDown(): void {
    this.shuttingDown = true;
  }

  get isShuttingDown(): boolean {
    return this.shuttingDown;
  }

  async evaluate(): Promise<{ ready: boolean; checks: Record<string, ReadinessResult> }> {
    const entries = await Promise.all(
      [...this.checks.entries()].map(async ([name, check]) => [name, await runBounded(check)] as const),
    );
    const checks = Object.fromEntries(entries);
    if (this.shuttingDown) checks.shutdown = { ok: false, detail: 'shutting down' };
    return { ready: Object.values(checks).every((result) => result.ok), checks };
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
