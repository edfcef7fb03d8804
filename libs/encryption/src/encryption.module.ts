import { Module } from '@nestjs/common';
import { CAIRN_CONFIG, type CairnConfig } from '@cairn/config';
import { TenancyModule } from '@cairn/tenancy';
import { DataKeysRepository } from './data-keys.repository';
import { EnvelopeEncryption, MASTER_KEYRING } from './envelope-encryption.service';
import { MasterKeyBootCheck } from './master-key-check.service';
import { MasterKeyRotation } from './master-key-rotation.service';
import { MasterKeyring } from './master-keyring';

/**
 * Envelope encryption for tenant data (DESIGN §8): import it where a capability stores something
 * only encrypted (secrets, sensitive memories). Needs the control schema (@cairn/db's pool).
 * A process that loads it refuses to start when its master keys cannot unwrap the stored data keys.
 */
@Module({
  // Whether a tenant is live, and its name in a rotation's report: @cairn/tenancy's.
  imports: [TenancyModule],
  providers: [
    {
      provide: MASTER_KEYRING,
      inject: [CAIRN_CONFIG],
      useFactory: (config: CairnConfig) =>
        new MasterKeyring(config.secrets.masterKey, config.secrets.previousMasterKey),
    },
    DataKeysRepository,
    EnvelopeEncryption,
    MasterKeyRotation,
    MasterKeyBootCheck,
  ],
  exports: [EnvelopeEncryption, MasterKeyRotation],
})
export class EncryptionModule {}
