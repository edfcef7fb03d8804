import { Inject, Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { CAIRN_CONFIG, type CairnConfig } from '@cairn/config';
import { DataKeysRepository, type MasterKeyUse } from './data-keys.repository';
import { EncryptionError } from './encryption-error';
import { MASTER_KEYRING } from './envelope-encryption.service';
import { type MasterKeyring } from './master-keyring';

/** PostgreSQL's codes for a table or schema that does not exist. */
const UNDEFINED_TABLE = '42P01';
const INVALID_SCHEMA_NAME = '3F000';

/**
 * Refuses to start a process (api, gateway, worker: whatever loads EncryptionModule) whose master
 * keys cannot unwrap every stored data key. Without it a replica started with a wrong or missing
 * CAIRN_MASTER_KEY would come up healthy and then fail every read and write of the tenants whose
 * keys it lacks, one request at a time. A fresh install (no data keys yet) starts.
 *
 * `npm run keys:rotate` is exempt: its job is to report, tenant by tenant, which keys it cannot
 * re-wrap, so it must run when some are out of reach.
 */
@Injectable()
export class MasterKeyBootCheck implements OnApplicationBootstrap {
  private readonly logger = new Logger('MasterKeyBootCheck');

  constructor(
    private readonly repository: DataKeysRepository,
    @Inject(MASTER_KEYRING) private readonly keyring: MasterKeyring,
    @Inject(CAIRN_CONFIG) private readonly config: CairnConfig,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    if (this.config.app === 'keys') return;
    // Only the api, gateway and worker require CAIRN_MASTER_KEY; another process without one
    // (bench) starts as long as nothing is wrapped.
    const current = this.config.secrets.masterKey ? this.keyring.currentId : null;
    const previous = this.keyring.previousId;
    const held = new Set([current, previous].filter((id) => id !== null));
    const inUse = await this.readMasterKeysInUse();
    if (!inUse) {
      // The apps start (not ready) before `npm run migrate`; no data key can exist before it.
      this.logger.log(`master key ${current ?? 'unset'} (CAIRN_MASTER_KEY); control schema not migrated yet`);
      return;
    }
    const lacking = inUse.filter((use) => !held.has(use.masterKeyId));
    if (lacking.length > 0) {
      const keys = lacking.reduce((sum, use) => sum + use.keys, 0);
      throw new EncryptionError(
        'master_key_unavailable',
        `refusing to start: ${keys} stored data key(s) are wrapped by master key(s) ` +
          `${lacking.map((use) => use.masterKeyId).join(', ')}, which this process lacks ` +
          `(CAIRN_MASTER_KEY is ${current ?? 'unset'}, CAIRN_MASTER_KEY_PREVIOUS is ${previous ?? 'unset'}): ` +
          'start with the master key that wrapped them, or during a rotation give the old one as ' +
          'CAIRN_MASTER_KEY_PREVIOUS and run npm run keys:rotate',
      );
    }
    // A fingerprint names a key but does not prove the stored wrapping is intact: unwrap one per
    // master key (throws data_key_corrupt, naming tenant and version, if it does not).
    for (const use of inUse) this.keyring.unwrap(use.sample).fill(0);
    const counts = inUse.map((use) => `${use.keys} under ${use.masterKeyId}`).join(', ');
    this.logger.log(
      `master key ${current ?? 'unset'} (CAIRN_MASTER_KEY)` +
        (previous ? `, previous ${previous} (CAIRN_MASTER_KEY_PREVIOUS)` : '') +
        `; stored data keys: ${counts || 'none yet'}`,
    );
  }

  /** null when the control schema (or its data-key table) does not exist yet. */
  private async readMasterKeysInUse(): Promise<MasterKeyUse[] | null> {
    try {
      return await this.repository.masterKeysInUse();
    } catch (error) {
      const code = (error as { driverError?: { code?: unknown } }).driverError?.code;
      if (code === UNDEFINED_TABLE || code === INVALID_SCHEMA_NAME) return null;
      throw error;
    }
  }
}
