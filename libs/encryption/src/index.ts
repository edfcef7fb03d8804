// Envelope encryption of tenant data: per-tenant data keys wrapped by CAIRN_MASTER_KEY (DESIGN §8).
export {
  type EncryptionErrorCode,
  type FieldBinding,
  type KeyRotationOutcome,
  type MasterKeyRotationReport,
  PLATFORM_SCOPE,
  type RotationListener,
  type TenantRotationReport,
} from './contract/encryption.types';
export { EncryptionError } from './encryption-error';
export { EncryptionModule } from './encryption.module';
export { CURRENT_VERSION_TTL_MS, EnvelopeEncryption } from './envelope-encryption.service';
export { ENVELOPE_FORMAT, envelopeKeyVersion } from './envelope-format';
export { MasterKeyRotation } from './master-key-rotation.service';
export { masterKeyId } from './master-keyring';
