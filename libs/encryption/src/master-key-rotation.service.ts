import { Inject, Injectable } from '@nestjs/common';
import { TenantsService } from '@cairn/tenancy';
import {
  type KeyRotationOutcome,
  type MasterKeyRotationReport,
  type RotationListener,
  type TenantRotationReport,
} from './contract/encryption.types';
import { DataKeysRepository, type TenantKeysSummary } from './data-keys.repository';
import { MASTER_KEYRING } from './envelope-encryption.service';
import { type MasterKeyring, type WrappedDataKey } from './master-keyring';

const PAGE = 200;
const BEFORE_ANY_UUID = '00000000-0000-0000-0000-000000000000';

/**
 * `npm run keys:rotate`: re-wraps every tenant's data keys, then the platform's own, from
 * CAIRN_MASTER_KEY_PREVIOUS to CAIRN_MASTER_KEY. Each tenant is re-wrapped in one transaction and each stored key names the
 * master key that wraps it, so a run stopped anywhere leaves every tenant readable by a process
 * holding both keys, and the next run carries on where it stopped (keys already under the current
 * master key are skipped). Only wrappings change: data keys, and so ciphertexts, stay as they are.
 */
@Injectable()
export class MasterKeyRotation {
  constructor(
    private readonly repository: DataKeysRepository,
    @Inject(MASTER_KEYRING) private readonly keyring: MasterKeyring,
    private readonly tenantDirectory: TenantsService,
  ) {}

  /** Fingerprints of CAIRN_MASTER_KEY and CAIRN_MASTER_KEY_PREVIOUS (null when unset): safe to print. */
  get masterKeyIds(): { readonly current: string; readonly previous: string | null } {
    return { current: this.keyring.currentId, previous: this.keyring.previousId };
  }

  run(listener: RotationListener): Promise<MasterKeyRotationReport> {
    const current = this.keyring.currentId;
    return this.repository.withRotationLock(
      () => listener.waiting(),
      async () => {
        const tenants: TenantRotationReport[] = [];
        let after = BEFORE_ANY_UUID;
        for (;;) {
          const page = await this.repository.tenantsPage(current, after, PAGE);
          // Deleted tenants keep their keys until their rows go: they are re-wrapped too, and named.
          const known = new Map(
            (await this.tenantDirectory.findManyById(page.map((summary) => summary.tenantId))).map((t) => [t.id, t]),
          );
          for (const summary of page) {
            const tenant = known.get(summary.tenantId);
            const named = { ...summary, slug: tenant?.slug ?? '', deleted: !tenant || tenant.deletedAt !== null };
            const report = await this.rotateTenant(named, current);
            tenants.push(report);
            listener.tenantDone(report);
          }
          if (page.length < PAGE) break;
          after = page[page.length - 1].tenantId;
        }
        const platform = await this.rotatePlatform(current);
        if (platform) listener.platformDone?.(platform);
        const outcomes: KeyRotationOutcome[] = platform ? [...tenants, platform] : tenants;
        return {
          masterKeyId: current,
          previousMasterKeyId: this.keyring.previousId,
          tenants,
          platform,
          rewrapped: outcomes.reduce((sum, outcome) => sum + outcome.rewrapped, 0),
          failed: outcomes.filter((outcome) => outcome.status === 'failed').length,
          // Counted afresh: keys a replica created under another master key during the run show here.
          remaining: await this.repository.countNotWrappedBy(current),
        };
      },
    );
  }

  private async rotateTenant(
    summary: TenantKeysSummary & { readonly slug: string; readonly deleted: boolean },
    current: string,
  ): Promise<TenantRotationReport> {
    const base = { tenantId: summary.tenantId, slug: summary.slug, deleted: summary.deleted };
    const outcome = await this.rotateKeys(summary, () =>
      this.repository.rewrapTenant(summary.tenantId, current, (stored) => this.rewrap(stored)),
    );
    return { ...base, ...outcome };
  }

  /** The platform's own data keys (PLATFORM_SCOPE), like a tenant's; null when it has none. */
  private async rotatePlatform(current: string): Promise<KeyRotationOutcome | null> {
    const summary = await this.repository.platformSummary(current);
    if (summary.keys === 0) return null;
    return this.rotateKeys(summary, () => this.repository.rewrapPlatform(current, (stored) => this.rewrap(stored)));
  }

  /** Re-wraps one set of keys unless all are current already; a failure is reported, not thrown. */
  private async rotateKeys(
    summary: { readonly keys: number; readonly current: number },
    rewrapAll: () => Promise<number>,
  ): Promise<KeyRotationOutcome> {
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    const keys = summary.keys;
    if (summary.current === keys) {
      return { keys, rewrapped: 0, alreadyCurrent: keys, status: 'up-to-date', durationMs: elapsed() };
    }
    try {
      const rewrapped = await rewrapAll();
      return {
        keys,
        rewrapped,
        alreadyCurrent: keys - rewrapped,
        status: rewrapped > 0 ? 'rotated' : 'up-to-date',
        durationMs: elapsed(),
      };
    } catch (error) {
      return {
        keys,
        rewrapped: 0,
        alreadyCurrent: summary.current,
        status: 'failed',
        // EncryptionError messages name fingerprints and versions only; anything else is a database error.
        error: (error as Error).message,
        durationMs: elapsed(),
      };
    }
  }

  private rewrap(stored: WrappedDataKey): WrappedDataKey {
    const dataKey = this.keyring.unwrap(stored);
    try {
      return this.keyring.wrap(stored.tenantId, stored.version, dataKey);
    } finally {
      dataKey.fill(0);
    }
  }
}
