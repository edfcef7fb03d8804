import { Injectable, Logger, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { OAuthProvider } from './oauth-provider.service';
import { OAuthRecordsRepository } from './oauth-records.repository';

const SWEEP_INTERVAL_MS = 10 * 60_000;
const BATCH = 1_000;

/**
 * Deletes the provider's expired artifacts (codes, tokens, interactions) a day after they expire,
 * a batch at a time every ten minutes, on each replica of the api: the delete is idempotent and
 * indexed, so replicas sweeping together cost nothing but a few empty statements.
 */
@Injectable()
export class OAuthSweeper implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger('OAuthSweeper');
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly provider: OAuthProvider,
    private readonly records: OAuthRecordsRepository,
  ) {}

  onModuleInit(): void {
    if (!this.provider.enabled) return;
    this.timer = setInterval(() => void this.sweep(), SWEEP_INTERVAL_MS);
    this.timer.unref();
  }

  onModuleDestroy(): void {
    clearInterval(this.timer);
  }

  async sweep(): Promise<number> {
    let total = 0;
    try {
      for (let deleted = BATCH; deleted === BATCH; total += deleted) deleted = await this.records.deleteExpired(BATCH);
    } catch (error) {
      this.logger.warn({ msg: 'could not sweep expired OAuth artifacts', err: error });
    }
    return total;
  }
}
