import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { CAIRN_CONFIG, type CairnConfig } from '@cairn/config';
import { SNAPSHOT_EXAMPLE as EX, SqlSnapshot, withAdvisoryLock } from '@cairn/db';
import { type DataSource, type EntityManager } from 'typeorm';
import { PLATFORM_SCOPE } from './contract/encryption.types';
import { DATA_KEYS_SQL, PLATFORM_KEYS_SQL } from './data-keys.sql';
import { type WrappedDataKey } from './master-keyring';

/** Advisory lock id (in LOCK_NAMESPACE) held by `npm run keys:rotate`; 1 is the migration lock. */
export const KEY_ROTATION_LOCK_ID = 2;

interface KeyRow {
  tenant_id: string;
  version: number;
  wrapped_key: Buffer;
  master_key_id: string;
}

/** A master key that wraps stored data keys: how many, and one of them to try. */
export interface MasterKeyUse {
  readonly masterKeyId: string;
  readonly keys: number;
  readonly sample: WrappedDataKey;
}

export interface TenantKeysSummary {
  readonly tenantId: string;
  readonly keys: number;
  /** Keys wrapped by the master key the page was asked about. */
  readonly current: number;
}

type PlatformKeyRow = Omit<KeyRow, 'tenant_id'>;

const toKey = (row: KeyRow): WrappedDataKey => ({
  tenantId: row.tenant_id,
  version: row.version,
  wrappedKey: row.wrapped_key,
  masterKeyId: row.master_key_id,
});

const toPlatformKey = (row: PlatformKeyRow): WrappedDataKey => toKey({ ...row, tenant_id: PLATFORM_SCOPE });

/**
 * The wrapped data keys in the control schema: the tenants' (`cairn.tenant_data_keys`) and the
 * platform's own (`cairn.platform_data_keys`, asked for as PLATFORM_SCOPE).
 */
@Injectable()
export class DataKeysRepository {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(CAIRN_CONFIG) private readonly config: CairnConfig,
  ) {}

  @SqlSnapshot({ params: [EX.tenantId] })
  async latest(tenantId: string): Promise<WrappedDataKey | null> {
    if (tenantId === PLATFORM_SCOPE) return this.latestOfPlatform();
    const rows = await this.dataSource.query<KeyRow[]>(DATA_KEYS_SQL.latest, [tenantId]);
    return rows[0] ? toKey(rows[0]) : null;
  }

  @SqlSnapshot({ params: [EX.tenantId, 1] })
  async byVersion(tenantId: string, version: number): Promise<WrappedDataKey | null> {
    if (tenantId === PLATFORM_SCOPE) return this.platformByVersion(version);
    const rows = await this.dataSource.query<KeyRow[]>(DATA_KEYS_SQL.byVersion, [tenantId, version]);
    return rows[0] ? toKey(rows[0]) : null;
  }

  /** Inserts unless that version exists: the caller reads what won. */
  @SqlSnapshot({
    params: [{ tenantId: EX.tenantId, version: 2, wrappedKey: Buffer.alloc(60, 5), masterKeyId: EX.masterKeyId }],
  })
  async insertIfAbsent(key: WrappedDataKey): Promise<void> {
    if (key.tenantId === PLATFORM_SCOPE) return this.insertPlatformIfAbsent(key);
    await this.dataSource.query(DATA_KEYS_SQL.insert, [key.tenantId, key.version, key.wrappedKey, key.masterKeyId]);
  }

  /** Rotation's work list, a page at a time in tenant id order. */
  @SqlSnapshot({ params: [EX.masterKeyId, '00000000-0000-0000-0000-000000000000', 100] })
  async tenantsPage(currentMasterKeyId: string, afterTenantId: string, limit: number): Promise<TenantKeysSummary[]> {
    const rows = await this.dataSource.query<{ tenant_id: string; keys: number; current: number }[]>(
      DATA_KEYS_SQL.tenantsPage,
      [currentMasterKeyId, afterTenantId, limit],
    );
    return rows.map((row) => ({ tenantId: row.tenant_id, keys: row.keys, current: row.current }));
  }

  /**
   * Re-wraps one tenant's keys in one transaction: `rewrap` maps each key still wrapped by
   * another master key to its new wrapping. A crash leaves the tenant wholly before or after.
   * Returns how many versions this call re-wrapped.
   */
  @SqlSnapshot({
    name: 'a key wrapped by the previous master key',
    params: [
      EX.tenantId,
      EX.masterKeyId,
      (key: WrappedDataKey) => ({ ...key, wrappedKey: Buffer.alloc(60, 6), masterKeyId: EX.masterKeyId }),
    ],
  })
  rewrapTenant(
    tenantId: string,
    currentMasterKeyId: string,
    rewrap: (key: WrappedDataKey) => WrappedDataKey,
  ): Promise<number> {
    return this.dataSource.transaction(async (manager: EntityManager) => {
      const rows = await manager.query<KeyRow[]>(DATA_KEYS_SQL.toRewrap, [tenantId, currentMasterKeyId]);
      return this.rewrapEach(rows.map(toKey), rewrap, async (stored, next) => {
        const result = await manager.query<[unknown[], number]>(DATA_KEYS_SQL.rewrap, [
          tenantId,
          stored.version,
          stored.masterKeyId,
          next.wrappedKey,
          next.masterKeyId,
        ]);
        return result[1];
      });
    });
  }

  /** The platform's keys, as `rewrapTenant` does a tenant's: in one transaction. */
  @SqlSnapshot({
    name: 'a platform key wrapped by the previous master key',
    params: [
      EX.masterKeyId,
      (key: WrappedDataKey) => ({ ...key, wrappedKey: Buffer.alloc(60, 6), masterKeyId: EX.masterKeyId }),
    ],
  })
  rewrapPlatform(currentMasterKeyId: string, rewrap: (key: WrappedDataKey) => WrappedDataKey): Promise<number> {
    return this.dataSource.transaction(async (manager: EntityManager) => {
      const rows = await manager.query<PlatformKeyRow[]>(PLATFORM_KEYS_SQL.toRewrap, [currentMasterKeyId]);
      return this.rewrapEach(rows.map(toPlatformKey), rewrap, async (stored, next) => {
        const result = await manager.query<[unknown[], number]>(PLATFORM_KEYS_SQL.rewrap, [
          stored.version,
          stored.masterKeyId,
          next.wrappedKey,
          next.masterKeyId,
        ]);
        return result[1];
      });
    });
  }

  /** How many data keys the platform has, and how many `currentMasterKeyId` wraps. */
  @SqlSnapshot({ params: [EX.masterKeyId] })
  async platformSummary(currentMasterKeyId: string): Promise<{ keys: number; current: number }> {
    const [row] = await this.dataSource.query<{ keys: number; current: number }[]>(PLATFORM_KEYS_SQL.summary, [
      currentMasterKeyId,
    ]);
    return { keys: row?.keys ?? 0, current: row?.current ?? 0 };
  }

  /** Every master key that wraps a stored data key (boot check), in fingerprint order. */
  @SqlSnapshot({ params: [] })
  async masterKeysInUse(): Promise<MasterKeyUse[]> {
    const rows = await this.dataSource.query<(KeyRow & { keys: number })[]>(DATA_KEYS_SQL.masterKeys);
    return rows.map((row) => ({ masterKeyId: row.master_key_id, keys: row.keys, sample: toKey(row) }));
  }

  @SqlSnapshot({ params: [EX.masterKeyId] })
  async countNotWrappedBy(masterKeyId: string): Promise<number> {
    const [row] = await this.dataSource.query<{ remaining: number }[]>(DATA_KEYS_SQL.notWrappedBy, [masterKeyId]);
    return row?.remaining ?? 0;
  }

  /** Runs `work` holding the rotation advisory lock; `onWait` first if another rotation holds it. */
  @SqlSnapshot({ params: [() => undefined, () => Promise.resolve()] })
  withRotationLock<T>(onWait: () => void, work: () => Promise<T>): Promise<T> {
    const target = { dataSource: this.dataSource, database: this.config.database };
    return withAdvisoryLock(target, 'npm run keys:rotate', KEY_ROTATION_LOCK_ID, onWait, work);
  }

  @SqlSnapshot({ params: [] })
  async latestOfPlatform(): Promise<WrappedDataKey | null> {
    const rows = await this.dataSource.query<PlatformKeyRow[]>(PLATFORM_KEYS_SQL.latest);
    return rows[0] ? toPlatformKey(rows[0]) : null;
  }

  @SqlSnapshot({ params: [1] })
  async platformByVersion(version: number): Promise<WrappedDataKey | null> {
    const rows = await this.dataSource.query<PlatformKeyRow[]>(PLATFORM_KEYS_SQL.byVersion, [version]);
    return rows[0] ? toPlatformKey(rows[0]) : null;
  }

  /** As `insertIfAbsent`, for the platform's keys. */
  @SqlSnapshot({
    params: [{ tenantId: PLATFORM_SCOPE, version: 2, wrappedKey: Buffer.alloc(60, 5), masterKeyId: EX.masterKeyId }],
  })
  async insertPlatformIfAbsent(key: WrappedDataKey): Promise<void> {
    await this.dataSource.query(PLATFORM_KEYS_SQL.insert, [key.version, key.wrappedKey, key.masterKeyId]);
  }

  /** Re-wraps each key with `rewrap` and stores it with `store` (which answers the rows it changed). */
  private async rewrapEach(
    keys: readonly WrappedDataKey[],
    rewrap: (key: WrappedDataKey) => WrappedDataKey,
    store: (stored: WrappedDataKey, next: WrappedDataKey) => Promise<number>,
  ): Promise<number> {
    let rewrapped = 0;
    for (const stored of keys) rewrapped += await store(stored, rewrap(stored));
    return rewrapped;
  }
}
