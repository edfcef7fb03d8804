import { randomUUID } from 'node:crypto';
import { Inject, Injectable, Logger, type OnModuleDestroy } from '@nestjs/common';
import { CAIRN_CONFIG, type CairnConfig } from '@cairn/config';
import { AuthChangeNoticesRepository, type NoticeSubscription } from './auth-change-notices.repository';
import { parseAuthChange, TokenCache } from './token-cache';

/** How often the listener proves notices still reach it; the cache is trusted for 2.5 of these. */
const PROBE_INTERVAL_MS = 10_000;
const TRUST_SPAN_MS = 25_000;
const RECONNECT_MIN_MS = 1_000;
const RECONNECT_MAX_MS = 30_000;

/**
 * Keeps the token cache honest. One dedicated connection LISTENs for the change notices the
 * control schema's triggers send at commit (a revoked or re-scoped token, a disabled or demoted
 * user, a deleted tenant) and drops what they name. Every 10 s it sends itself a probe through
 * the ordinary pool and trusts the cache only while probes come back: a lost connection, a
 * pooler that swallows notices, or a database not yet migrated (no probe function) leave the
 * cache off, and every request is looked up as if there were none. Behind a transaction pooler
 * it listens on DATABASE_DIRECT_URL, and without one it does not start.
 *
 * Started on the first verification, so processes that never authenticate (the worker,
 * command-line tools) open no extra connection.
 */
@Injectable()
export class AuthChangeListener implements OnModuleDestroy {
  private readonly logger = new Logger('AuthChangeListener');
  readonly cache: TokenCache;
  private subscription: NoticeSubscription | undefined;
  private started = false;
  private stopped = false;
  private probeTimer: NodeJS.Timeout | undefined;
  private reconnectTimer: NodeJS.Timeout | undefined;
  private reconnectDelay = RECONNECT_MIN_MS;
  private pendingProbe: string | undefined;
  /** Callers of `settle` waiting for their marker to come back, by nonce. */
  private readonly settling = new Map<string, () => void>();

  constructor(
    @Inject(CAIRN_CONFIG) private readonly config: CairnConfig,
    private readonly notices: AuthChangeNoticesRepository,
  ) {
    this.cache = new TokenCache(config.auth.tokenCacheTtlMs);
  }

  /**
   * Idempotent; does nothing when the cache is configured off, or behind a transaction pooler
   * with no DATABASE_DIRECT_URL: LISTEN needs a session of its own, which such a pooler does not
   * keep, so the cache stays off there (every request is looked up) rather than trust notices
   * that cannot arrive.
   */
  start(): void {
    if (this.started || this.stopped || this.config.auth.tokenCacheTtlMs === 0) return;
    this.started = true;
    if (!this.config.database.sessionUrl) {
      this.logger.log(
        'token cache off: DATABASE_POOLER=transaction without DATABASE_DIRECT_URL leaves no connection to LISTEN on',
      );
      return;
    }
    void this.connect();
  }

  async onModuleDestroy(): Promise<void> {
    this.stopped = true;
    clearInterval(this.probeTimer);
    clearTimeout(this.reconnectTimer);
    this.cache.distrust();
    await this.subscription?.close();
  }

  /**
   * Resolves once every notice committed before the call has reached this replica's listener
   * (a marker sent now comes back after them: PostgreSQL delivers notices in commit order).
   * The admin paths that revoke call it before answering, so by the time the caller hears
   * "revoked" the database has signalled every replica's listener. Bounded: a listener that
   * is down has already stopped the cache answering.
   */
  async settle(timeoutMs = 1_000): Promise<void> {
    if (!this.cache.trusted) return;
    const nonce = randomUUID();
    let timer: NodeJS.Timeout | undefined;
    const heard = new Promise<void>((resolve) => {
      this.settling.set(nonce, resolve);
      timer = setTimeout(resolve, timeoutMs);
    });
    try {
      await this.notices.mark(nonce);
      await heard;
    } catch {
      // The pool failed: the next probe fails too and distrusts the cache.
    } finally {
      clearTimeout(timer);
      this.settling.delete(nonce);
    }
  }

  private async connect(): Promise<void> {
    try {
      const subscription = await this.notices.listen(
        (payload) => this.onNotice(payload),
        (error) => this.lost(error),
      );
      if (this.stopped) return void (await subscription.close());
      this.subscription = subscription;
    } catch (error) {
      this.lost(error);
      return;
    }
    this.reconnectDelay = RECONNECT_MIN_MS;
    clearInterval(this.probeTimer);
    this.probeTimer = setInterval(() => void this.probe(), PROBE_INTERVAL_MS).unref();
    await this.probe();
  }

  /** Any doubt about the connection: forget everything, stop trusting, try again later. */
  private lost(error: unknown): void {
    this.subscription = undefined;
    this.pendingProbe = undefined;
    clearInterval(this.probeTimer);
    this.cache.distrust();
    if (this.stopped) return;
    this.logger.warn({
      msg: 'token change notices interrupted; every request is looked up until they resume',
      err: error,
    });
    this.reconnectTimer = setTimeout(() => void this.connect(), this.reconnectDelay).unref();
    this.reconnectDelay = Math.min(this.reconnectDelay * 2, RECONNECT_MAX_MS);
  }

  private onNotice(payload: string): void {
    if (payload.startsWith('settle:')) {
      this.settling.get(payload.slice('settle:'.length))?.();
      return;
    }
    if (payload.startsWith('probe:')) {
      if (this.pendingProbe !== undefined && payload === `probe:${this.pendingProbe}`) {
        this.pendingProbe = undefined;
        this.cache.trustUntil(Date.now() + TRUST_SPAN_MS);
      }
      return;
    }
    const change = parseAuthChange(payload);
    // A notice it cannot read may still have meant something: forget everything.
    if (change) this.cache.forget(change);
    else this.cache.distrust();
  }

  /** Sends a probe through the pool (not the listening connection) and expects it back. */
  private async probe(): Promise<void> {
    // The previous probe never came back: notices are not arriving.
    if (this.pendingProbe !== undefined) this.cache.distrust();
    const nonce = randomUUID();
    this.pendingProbe = nonce;
    try {
      await this.notices.probe(nonce);
    } catch (error) {
      this.cache.distrust();
      this.logger.warn({ msg: 'token cache probe failed; every request is looked up', err: error });
    }
  }
}
