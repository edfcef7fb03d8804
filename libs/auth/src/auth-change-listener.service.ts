import { randomUUID } from 'node:crypto';
import { Inject, Injectable, Logger, type OnModuleDestroy } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { CAIRN_CONFIG, type CairnConfig } from '@cairn/config';
import { Client, type Notification } from 'pg';
import { type DataSource } from 'typeorm';
import { parseAuthChange, TokenCache } from './token-cache';

/** The channel control migration 4's triggers and probe function notify. */
export const AUTH_CHANGE_CHANNEL = 'cairn_auth_change';
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
 * cache off, and every request is looked up as if there were none.
 *
 * Started on the first verification, so processes that never authenticate (the worker,
 * command-line tools) open no extra connection.
 */
@Injectable()
export class AuthChangeListener implements OnModuleDestroy {
  private readonly logger = new Logger('AuthChangeListener');
  readonly cache: TokenCache;
  private client: Client | undefined;
  private started = false;
  private stopped = false;
  private probeTimer: NodeJS.Timeout | undefined;
  private reconnectTimer: NodeJS.Timeout | undefined;
  private reconnectDelay = RECONNECT_MIN_MS;
  private pendingProbe: { nonce: string; sentAt: number } | undefined;
  /** Callers of `settle` waiting for their probe to come back, by nonce. */
  private readonly settling = new Map<string, () => void>();

  constructor(
    @Inject(CAIRN_CONFIG) private readonly config: CairnConfig,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {
    this.cache = new TokenCache(config.auth.tokenCacheTtlMs);
  }

  /** Idempotent; does nothing when the cache is configured off. */
  start(): void {
    if (this.started || this.stopped || this.config.auth.tokenCacheTtlMs === 0) return;
    this.started = true;
    void this.connect();
  }

  async onModuleDestroy(): Promise<void> {
    this.stopped = true;
    clearInterval(this.probeTimer);
    clearTimeout(this.reconnectTimer);
    this.cache.distrust();
    await this.client?.end().catch(() => undefined);
  }

  private async connect(): Promise<void> {
    const client = new Client({
      connectionString: this.config.database.url,
      application_name: `cairn-${this.config.app}-auth-listener`,
      keepAlive: true,
      connectionTimeoutMillis: 10_000,
    });
    this.client = client;
    client.on('notification', (notice) => this.onNotice(notice));
    client.on('error', (error) => this.lost(client, error));
    client.on('end', () => this.lost(client, undefined));
    try {
      await client.connect();
      await client.query(`LISTEN ${AUTH_CHANGE_CHANNEL}`);
    } catch (error) {
      this.lost(client, error);
      return;
    }
    if (this.stopped) return void client.end().catch(() => undefined);
    this.reconnectDelay = RECONNECT_MIN_MS;
    clearInterval(this.probeTimer);
    this.probeTimer = setInterval(() => void this.probe(), PROBE_INTERVAL_MS).unref();
    await this.probe();
  }

  /** Any doubt about the connection: forget everything, stop trusting, try again later. */
  private lost(client: Client, error: unknown): void {
    if (client !== this.client) return;
    this.client = undefined;
    this.pendingProbe = undefined;
    clearInterval(this.probeTimer);
    this.cache.distrust();
    client.removeAllListeners('notification');
    void client.end().catch(() => undefined);
    if (this.stopped) return;
    this.logger.warn({
      msg: 'token change notices interrupted; every request is looked up until they resume',
      err: error,
    });
    this.reconnectTimer = setTimeout(() => void this.connect(), this.reconnectDelay).unref();
    this.reconnectDelay = Math.min(this.reconnectDelay * 2, RECONNECT_MAX_MS);
  }

  private onNotice(notice: Notification): void {
    if (notice.channel !== AUTH_CHANGE_CHANNEL) return;
    const payload = notice.payload ?? '';
    if (payload.startsWith('settle:')) {
      this.settling.get(payload.slice('settle:'.length))?.();
      return;
    }
    if (payload.startsWith('probe:')) {
      const pending = this.pendingProbe;
      if (pending && payload === `probe:${pending.nonce}`) {
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

  /**
   * Resolves once every notice committed before the call has reached this replica's listener
   * (a probe sent now comes back after them: PostgreSQL delivers notices in commit order).
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
      await this.dataSource.query(`SELECT pg_notify('${AUTH_CHANGE_CHANNEL}', $1)`, [`settle:${nonce}`]);
      await heard;
    } catch {
      // The pool failed: the probe will fail too and distrust the cache.
    } finally {
      clearTimeout(timer);
      this.settling.delete(nonce);
    }
  }

  /** Sends a probe through the pool (not the listening connection) and expects it back. */
  private async probe(): Promise<void> {
    if (this.pendingProbe) {
      // The previous probe never came back: notices are not arriving.
      this.cache.distrust();
    }
    const nonce = randomUUID();
    this.pendingProbe = { nonce, sentAt: Date.now() };
    try {
      await this.dataSource.query('SELECT cairn.auth_change_probe($1)', [nonce]);
    } catch (error) {
      this.cache.distrust();
      this.logger.warn({ msg: 'token cache probe failed; every request is looked up', err: error });
    }
  }
}
