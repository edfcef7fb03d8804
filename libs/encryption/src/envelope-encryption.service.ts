import { createHmac, hkdfSync } from 'node:crypto';
import { Inject, Injectable, Logger, type OnModuleDestroy } from '@nestjs/common';
import { TenantsService } from '@cairn/tenancy';
import { LRUCache } from 'lru-cache';
import { type FieldBinding, PLATFORM_SCOPE } from './contract/encryption.types';
import { DataKeyCache } from './data-key-cache';
import { DataKeysRepository } from './data-keys.repository';
import { EncryptionError } from './encryption-error';
import {
  checkBinding,
  checkTenantId,
  ENVELOPE_FORMAT,
  MAX_KEY_VERSION,
  openEnvelope,
  parseEnvelope,
  sealEnvelope,
} from './envelope-format';
import { MasterKeyring, newDataKey, type WrappedDataKey } from './master-keyring';

/** Injection token of the process's MasterKeyring (built from CAIRN_MASTER_KEY and _PREVIOUS). */
export const MASTER_KEYRING = Symbol('MASTER_KEYRING');

/**
 * How long a replica keeps writing with the data-key version it last read. A data-key rotation on
 * another replica is picked up within this; until then writes use the previous version, which
 * stays readable, so nothing is lost.
 */
export const CURRENT_VERSION_TTL_MS = 60_000;

/**
 * Envelope encryption of tenant data: AES-256-GCM under a per-tenant data key, itself wrapped by
 * the master key (MasterKeyring) and stored in the control schema. Callers name where a value
 * belongs (tenant, table, row, field); the name is authenticated with the ciphertext. What
 * belongs to no tenant is sealed for PLATFORM_SCOPE, under the platform's own data keys.
 *
 * Store the envelope as `bytea` (or base64 text). On read, `needsReencryption` tells whether the
 * value should be re-sealed with the tenant's current data key (after a data-key rotation).
 */
@Injectable()
export class EnvelopeEncryption implements OnModuleDestroy {
  private readonly logger = new Logger('EnvelopeEncryption');
  private readonly dataKeys = new DataKeyCache();
  private readonly currentVersions = new LRUCache<string, number>({ max: 10_000, ttl: CURRENT_VERSION_TTL_MS });
  /** One database round trip per tenant (and per key) however many callers ask at once. */
  private readonly inFlight = new Map<string, Promise<unknown>>();

  constructor(
    private readonly repository: DataKeysRepository,
    @Inject(MASTER_KEYRING) private readonly keyring: MasterKeyring,
    private readonly tenants: TenantsService,
  ) {}

  /** Seals `plaintext` (UTF-8 for strings) for the given place with the tenant's current data key. */
  async encrypt(tenantId: string, binding: FieldBinding, plaintext: string | Buffer): Promise<Buffer> {
    const checked = checkBinding(tenantId, binding);
    const data = typeof plaintext === 'string' ? Buffer.from(plaintext, 'utf8') : plaintext;
    const version = await this.currentVersion(checked.tenantId);
    return this.withDataKey(checked.tenantId, version, (key) => sealEnvelope(key, version, checked, data));
  }

  /** Opens an envelope sealed for exactly this tenant and place; throws EncryptionError otherwise. */
  async decrypt(tenantId: string, binding: FieldBinding, envelope: Buffer): Promise<Buffer> {
    const checked = checkBinding(tenantId, binding);
    const parsed = parseEnvelope(envelope);
    return this.withDataKey(checked.tenantId, parsed.keyVersion, (key) => openEnvelope(key, parsed, checked));
  }

  async decryptText(tenantId: string, binding: FieldBinding, envelope: Buffer): Promise<string> {
    return (await this.decrypt(tenantId, binding, envelope)).toString('utf8');
  }

  /**
   * A keyed digest for this tenant: HMAC-SHA256 under a key derived (HKDF, `purpose` as info)
   * from the tenant's first data key, so digests are stable across data-key rotations and differ
   * between tenants and purposes. Unlike a plain hash, a digest cannot confirm a guessed value
   * without the tenant's key. Returned as a synchronous function for callers (redaction) that need
   * many digests in a synchronous pass; drop it after use.
   */
  async keyedDigester(tenantId: string, purpose: string): Promise<(value: string | Buffer) => Buffer> {
    const tenant = checkTenantId(tenantId);
    await this.currentVersion(tenant); // creates version 1 on a tenant's first use
    const derived = await this.withDataKey(tenant, 1, (key) =>
      Buffer.from(hkdfSync('sha256', key, Buffer.alloc(0), `cairn:${purpose}`, 32)),
    );
    return (value) => createHmac('sha256', derived).update(value).digest();
  }

  /**
   * True when the envelope was sealed with an older data-key version (or an older format) than
   * the tenant's current one: decrypt it and encrypt it again when convenient, e.g. on the next
   * read or update of the row. Old envelopes stay readable meanwhile.
   */
  async needsReencryption(tenantId: string, envelope: Buffer): Promise<boolean> {
    const tenant = checkTenantId(tenantId);
    const parsed = parseEnvelope(envelope);
    if (parsed.format !== ENVELOPE_FORMAT) return true;
    return parsed.keyVersion < (await this.currentVersion(tenant));
  }

  /**
   * The version new envelopes of this tenant are sealed with. As this replica knows it (up to
   * CURRENT_VERSION_TTL_MS behind a rotation elsewhere) unless `fresh`, which reads the key table
   * and updates what this replica writes with: for rare callers that must not lag (a re-seal sweep).
   */
  currentKeyVersion(tenantId: string, options: { fresh?: boolean } = {}): Promise<number> {
    const tenant = checkTenantId(tenantId);
    if (options.fresh) this.currentVersions.delete(tenant);
    return this.currentVersion(tenant);
  }

  /**
   * The same value sealed again, for the same place, under the tenant's current data key; null
   * when the envelope already uses it. After a data-key rotation, callers store the result in
   * place of the old envelope (lazy re-encryption); the old key version stays readable meanwhile.
   */
  async reseal(tenantId: string, binding: FieldBinding, envelope: Buffer): Promise<Buffer | null> {
    if (!(await this.needsReencryption(tenantId, envelope))) return null;
    const plaintext = await this.decrypt(tenantId, binding, envelope);
    try {
      return await this.encrypt(tenantId, binding, plaintext);
    } finally {
      plaintext.fill(0);
    }
  }

  /**
   * Starts a new data-key version for the tenant; new writes use it (on other replicas within
   * CURRENT_VERSION_TTL_MS), old envelopes stay readable. Replicas racing for the same version
   * number make one version, never a conflict. Returns the tenant's current version.
   */
  async rotateDataKey(tenantId: string): Promise<number> {
    const tenant = checkTenantId(tenantId);
    const latest = await this.repository.latest(tenant);
    const next = (latest?.version ?? 0) + 1;
    // The envelope spends two bytes on the version: 65,535 rotations per tenant.
    if (next > MAX_KEY_VERSION) throw new Error(`tenant ${tenant} has used every data-key version`);
    await this.createVersion(tenant, next);
    this.currentVersions.delete(tenant);
    const version = await this.currentVersion(tenant);
    this.logger.log(`tenant ${tenant}: data key v${version} now encrypts new values`);
    return version;
  }

  onModuleDestroy(): void {
    this.dataKeys.clear();
  }

  /** The tenant's current data-key version, creating version 1 on first use. */
  private async currentVersion(tenantId: string): Promise<number> {
    const cached = this.currentVersions.get(tenantId);
    if (cached !== undefined) return cached;
    return this.once(`current:${tenantId}`, async () => {
      let latest = await this.repository.latest(tenantId);
      if (!latest) {
        await this.createVersion(tenantId, 1);
        latest = await this.repository.latest(tenantId);
        if (!latest) throw new EncryptionError('unknown_tenant', `tenant ${tenantId} does not exist (or is deleted)`);
      }
      this.remember(latest);
      this.currentVersions.set(tenantId, latest.version);
      return latest.version;
    });
  }

  /** Inserts a fresh key as `version` unless another caller (any replica) got there first. */
  private async createVersion(tenantId: string, version: number): Promise<void> {
    // A live tenant (or the platform) only: for a deleted or unknown one nothing is made, and its reads then fail.
    if (tenantId !== PLATFORM_SCOPE && !(await this.tenants.findLiveById(tenantId))) return;
    const dataKey = newDataKey();
    try {
      await this.repository.insertIfAbsent(this.keyring.wrap(tenantId, version, dataKey));
    } finally {
      dataKey.fill(0);
    }
  }

  /**
   * Runs `use` with the unwrapped key of that version, synchronously after reading it from the
   * cache, so a key wiped on eviction is never used. Loads (and unwraps) it when absent.
   */
  private async withDataKey<T>(tenantId: string, version: number, use: (key: Buffer) => T): Promise<T> {
    for (let attempt = 0; attempt < 3; attempt += 1) {
      const key = this.dataKeys.get(tenantId, version);
      if (key) return use(key);
      await this.once(`key:${tenantId}:${version}`, async () => {
        const stored = await this.repository.byVersion(tenantId, version);
        if (!stored) {
          throw new EncryptionError(
            'unknown_data_key',
            `tenant ${tenantId} has no data key v${version}: the envelope is not one of this tenant's`,
          );
        }
        this.remember(stored);
      });
    }
    throw new Error(`tenant ${tenantId}: data key v${version} left the cache as soon as it was loaded`);
  }

  private remember(stored: WrappedDataKey): void {
    if (this.dataKeys.get(stored.tenantId, stored.version)) return;
    this.dataKeys.set(stored.tenantId, stored.version, this.keyring.unwrap(stored));
  }

  private once<T>(id: string, load: () => Promise<T>): Promise<T> {
    const running = this.inFlight.get(id) as Promise<T> | undefined;
    if (running) return running;
    const started = load().finally(() => this.inFlight.delete(id));
    this.inFlight.set(id, started);
    return started;
  }
}
