import { Injectable, Logger } from '@nestjs/common';
import { EncryptionError, EnvelopeEncryption } from '@cairn/encryption';
import { TenantContext, TenantTransaction } from '@cairn/tenancy';
import { type DataKeyRotationResult, type DataKeyStatus, type ResealSweepReport } from './contract/data-key.dto';
import { type SealedRow, SecretsRepository } from './secrets.repository';

/** Envelopes a sweep run re-seals at most, so a run stays short whatever the table's size. */
export const RESEAL_BATCH = 500;
/** Rows read per page of a sweep run (each page is re-sealed, then written in one transaction). */
const PAGE = 100;

interface Resealed {
  readonly row: SealedRow;
  readonly next: Buffer;
}

/**
 * Per-tenant data-key rotation (issue 12 §2) for what the tenant keeps sealed: the originals in
 * its `secrets` table (redacted secrets and whole sensitive memories). Rotating adds a data-key
 * version that new writes use; envelopes under older versions stay readable and are re-sealed
 * lazily, when `secret_get` reads them and by the maintenance sweep, a bounded batch per run.
 * Old key versions are never deleted: a backup exported with ciphertext may still name them.
 *
 * Every method runs in the tenant's context (the request's or the job's). Encryption happens
 * outside the tenant transactions: a key's first use reads the control schema on a connection
 * of its own.
 */
@Injectable()
export class DataKeyRotation {
  private readonly logger = new Logger('DataKeyRotation');

  constructor(
    private readonly tenant: TenantContext,
    private readonly tx: TenantTransaction,
    private readonly repository: SecretsRepository,
    private readonly encryption: EnvelopeEncryption,
  ) {}

  async rotate(): Promise<DataKeyRotationResult> {
    const tenant = this.tenant.require('DataKeyRotation.rotate');
    const version = await this.encryption.rotateDataKey(tenant.id);
    this.logger.log({ msg: 'data key rotated', tenantId: tenant.id, version });
    // A tenant that never sealed anything had no key: its first rotation makes version 1.
    return { ...(await this.status()), previousVersion: version > 1 ? version - 1 : null };
  }

  async status(): Promise<DataKeyStatus> {
    const tenant = this.tenant.require('DataKeyRotation.status');
    // Fresh: the rotation may have happened on another replica a moment ago.
    const currentVersion = await this.encryption.currentKeyVersion(tenant.id, { fresh: true });
    const byVersion = await this.tx.run(() => this.repository.countByKeyVersion());
    const count = (rows: typeof byVersion) => rows.reduce((sum, row) => sum + row.envelopes, 0);
    return {
      currentVersion,
      envelopes: count(byVersion),
      remaining: count(byVersion.filter((row) => row.version < currentVersion)),
      byVersion,
    };
  }

  /**
   * After a read: re-seals those of the rows just read that use an older data-key version.
   * Never fails the read that called it; a row it could not move is left to the sweep.
   */
  async resealAfterRead(rows: readonly SealedRow[]): Promise<void> {
    try {
      const tenantId = this.tenant.require('DataKeyRotation.resealAfterRead').id;
      const stale: SealedRow[] = [];
      for (const row of rows) if (await this.encryption.needsReencryption(tenantId, row.envelope)) stale.push(row);
      if (stale.length > 0) await this.resealRows(tenantId, stale);
    } catch (error) {
      this.logger.warn({ msg: 'could not re-seal secrets after a read; the sweep will', err: error });
    }
  }

  /** One sweep run: re-seals up to `limit` envelopes under older versions, in id order. */
  async sweep(limit = RESEAL_BATCH): Promise<ResealSweepReport> {
    const tenantId = this.tenant.require('DataKeyRotation.sweep').id;
    const version = await this.encryption.currentKeyVersion(tenantId, { fresh: true });
    let totals = { resealed: 0, failed: 0, skipped: 0 };
    let after: string | null = null;
    for (let seen = 0; seen < limit;) {
      const cursor: string | null = after;
      const page: SealedRow[] = await this.tx.run(() =>
        this.repository.sealedBefore(version, cursor, Math.min(PAGE, limit - seen)),
      );
      if (page.length === 0) break;
      seen += page.length;
      after = page[page.length - 1].id;
      const outcome = await this.resealRows(tenantId, page);
      totals = {
        resealed: totals.resealed + outcome.resealed,
        failed: totals.failed + outcome.failed,
        skipped: totals.skipped + outcome.skipped,
      };
    }
    const { remaining } = await this.status();
    return { ...totals, remaining };
  }

  /** Seals each row again (outside the transaction), then swaps the envelopes in one transaction. */
  private async resealRows(
    tenantId: string,
    rows: readonly SealedRow[],
  ): Promise<{ resealed: number; failed: number; skipped: number }> {
    const done: Resealed[] = [];
    let failed = 0;
    let skipped = 0;
    for (const row of rows) {
      try {
        const binding = { table: 'secrets', rowId: row.placeholderId, field: 'value' };
        const next = await this.encryption.reseal(tenantId, binding, row.envelope);
        if (next) done.push({ row, next });
        else skipped += 1;
      } catch (error) {
        if (!(error instanceof EncryptionError)) throw error;
        // An envelope that does not open would not open on read either: say which row, never a value.
        failed += 1;
        this.logger.warn({ msg: 'a sealed secret could not be re-sealed', tenantId, rowId: row.id, code: error.code });
      }
    }
    const swapped = await this.tx.run(async () => {
      let count = 0;
      for (const { row, next } of done)
        if (await this.repository.replaceEnvelope(row.id, row.envelope, next)) count += 1;
      return count;
    });
    return { resealed: swapped, failed, skipped: skipped + done.length - swapped };
  }
}
